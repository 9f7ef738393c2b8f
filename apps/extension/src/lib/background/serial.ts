/**
 * Runs the work given to it one at a time, in order, whatever became of the work before (a
 * failure does not stop the queue). The caches use it so that two writes cannot both count the
 * same free room, or a delete overtake the write it follows.
 */
export function serialQueue() {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
}
