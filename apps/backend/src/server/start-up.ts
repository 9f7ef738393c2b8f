/** What start-up opens and migrates: a database (`db/client.ts`). */
interface Migratable {
  migrate(): Promise<void>;
}

/**
 * Migrates the database `open` yields while `load` imports the app's modules, so that connecting
 * and migrating overlap with loading instead of adding up: start-up saves the shorter of the
 * two. A failure to open or migrate stops start-up once the modules are in.
 */
export async function openWhileLoading<D extends Migratable, M>(
  open: Promise<D>,
  load: Promise<M>,
): Promise<[D, M]> {
  const database = open.then(async (opened) => {
    await opened.migrate();
    return opened;
  });
  database.catch(() => undefined); // awaited below, where a failure stops start-up
  const modules = await load;
  return [await database, modules];
}
