// The filters the sections share (the built one, the blacklist, the imported one), so export,
// import comparison and worker mode can pick any of them.

const entries = new Map(); // name → { name, label, filter, spec, version }
const listeners = new Set();
const LABELS = { builder: 'the built filter', blacklist: 'the blacklist filter', imported: 'the imported filter' };

function notify() {
  for (const fn of listeners) fn();
}

/** Replaces the filter called `name` (freeing the old one unless it is the same object). */
export function setFilter(name, filter, spec) {
  const old = entries.get(name);
  if (old && old.filter !== filter && !old.filter.freed) old.filter.free();
  entries.set(name, { name, label: LABELS[name] ?? name, filter, spec, version: (old?.version ?? 0) + 1 });
  notify();
}

/** Frees and forgets the filter called `name` (a failed build leaves no stale one behind). */
export function dropFilter(name) {
  const old = entries.get(name);
  if (!old) return;
  if (!old.filter.freed) old.filter.free();
  entries.delete(name);
  notify();
}

/** Marks the filter `name` as changed (keys added or removed). */
export function touch(name) {
  const e = entries.get(name);
  if (e) { e.version++; notify(); }
}

export const getEntry = (name) => entries.get(name) ?? null;

export const onChange = (fn) => listeners.add(fn);

/** Fills every `select.source-select` with the filters that exist, keeping the selection. */
export function refreshSourceSelects() {
  for (const sel of document.querySelectorAll('select.source-select')) {
    const keep = sel.value;
    sel.replaceChildren();
    for (const e of entries.values()) {
      const info = e.filter.freed ? null : e.filter;
      const opt = new Option(`${e.label} (${e.spec?.label ?? '?'}, ${info ? info.size.toLocaleString('en-US') : 0} keys)`, e.name);
      sel.append(opt);
    }
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  }
}
