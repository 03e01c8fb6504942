// The README's relative links, resolved inside the packed tarball: each target file must be in it,
// and each #anchor must be a heading of the target (GitHub's and the registry's slugs: lower
// case, punctuation dropped, spaces to hyphens). A README read in node_modules or on the
// registry's page then has no dead link.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** GitHub's anchor of a Markdown heading's text. */
export function slug(heading) {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(text) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/**
 * Every relative link of `file` (in `dir`, a folder holding the packed files) that does not
 * resolve to a file of `packed` (their paths) and, with a #anchor, to one of its headings:
 * a list of "link: why". Also returns how many links were checked.
 */
export function deadLinks(dir, packed, file = 'README.md') {
  const text = readFileSync(join(dir, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const dead = [];
  let checked = 0;
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1];
    if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto:
    checked++;
    const [path, anchor] = link.split('#');
    const target = path ? posix.normalize(posix.join(posix.dirname(file), path)) : file;
    if (!packed.includes(target)) { dead.push(`${link}: ${target} is not in the tarball`); continue; }
    if (anchor !== undefined && /\.md$/.test(target) && !anchors(readFileSync(join(dir, target), 'utf8')).has(anchor)) {
      dead.push(`${link}: ${target} has no heading #${anchor}`);
    }
  }
  return { dead, checked };
}
