import { i18n } from "../../lib/shared/i18n.ts";
import {
  LIBRARY_FILTERS,
  LIBRARY_SORT_ORDERS,
  type LibraryQuery,
} from "../../lib/shared/library-query.ts";

/** Search box, filter and sort above the task list. */
export function LibraryBar(props: { query: LibraryQuery; onChange: (next: LibraryQuery) => void }) {
  const { query, onChange } = props;
  return (
    <div class="row library-bar" role="search">
      <input
        type="search"
        aria-label={i18n.t("library.search")}
        placeholder={i18n.t("library.searchShort")}
        value={query.q}
        onInput={(event) => {
          onChange({ ...query, q: event.currentTarget.value });
        }}
      />
      <select
        aria-label={i18n.t("library.filter")}
        value={query.filter}
        onChange={(event) => {
          const filter = LIBRARY_FILTERS.find((f) => f === event.currentTarget.value);
          if (filter) onChange({ ...query, filter });
        }}
      >
        {LIBRARY_FILTERS.map((filter) => (
          <option key={filter} value={filter}>
            {i18n.t(`library.filters.${filter}`)}
          </option>
        ))}
      </select>
      <select
        aria-label={i18n.t("library.sort")}
        value={query.sort}
        onChange={(event) => {
          const sort = LIBRARY_SORT_ORDERS.find((s) => s === event.currentTarget.value);
          if (sort) onChange({ ...query, sort });
        }}
      >
        {LIBRARY_SORT_ORDERS.map((sort) => (
          <option key={sort} value={sort}>
            {i18n.t(`library.sorts.${sort}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
