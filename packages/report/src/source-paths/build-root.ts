/**
 * Source paths relative to the repository. Compilers record where the build machine had the
 * checkout (`/home/ci/work/fw/os/rt/src/chthreads.c`), so every path carries the same build
 * folder; shown as they are, they make trees start five levels deep and columns long.
 */

const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/])/;
/** Toolchain and system headers and libraries: never the project's checkout. */
const SYSTEM = /^(?:\/usr\/|\/opt\/)|[\\/]lib[\\/]gcc[\\/]|[\\/](?:newlib|picolibc)[\\/]/;

/**
 * Folders that hold sources inside a repository, never the repository itself: when every path
 * lies below one (ChibiOS's `os/`), the checkout is the folder above it.
 */
const SOURCE_FOLDER =
  /^(?:src|source|sources|os|lib|libs|inc|include|app|apps|core|drivers|hal|firmware|components|modules|middlewares?|platforms?|ports?|kernel|rtos|third_party|thirdparty|vendor|external|common|boards?|bsp)$/i;

/**
 * The build folder of a report's paths, with its trailing separator ('' when there is none):
 * the deepest folder holding every absolute project path under the most common top folder (the
 * first two components, e.g. `/home/ci`), so toolchain paths and a stray path elsewhere do not
 * shorten it, and above the usual source folders (`os`, `src`, `lib` …) so paths keep them.
 * Relative paths are relative already.
 */
export function buildRoot(paths: Iterable<string>): string {
  const groups = new Map<string, string[]>();
  for (const path of new Set(paths)) {
    if (!ABSOLUTE.test(path) || SYSTEM.test(path)) continue;
    const key = path.split(/[\\/]/, 2).join('/');
    const group = groups.get(key);
    if (group) group.push(path);
    else groups.set(key, [path]);
  }
  let largest: string[] = [];
  for (const group of groups.values()) if (group.length > largest.length) largest = group;
  const [first] = largest;
  if (first === undefined) return '';
  // The common prefix ending at a separator, never inside a file name.
  let end = first.search(/[^\\/]*$/);
  for (const path of largest) {
    let i = 0;
    while (i < end && path[i] === first[i]) i++;
    end = first.slice(0, i).search(/[^\\/]*$/);
  }
  let root = first.slice(0, end);
  for (;;) {
    const last = /([^\\/]+)[\\/]$/.exec(root);
    if (!last || !SOURCE_FOLDER.test(last[1]!)) break;
    root = root.slice(0, root.length - last[0].length);
  }
  // `/` or `C:\` alone is no build folder.
  return /^(?:[\\/]|[A-Za-z]:[\\/])$/.test(root) ? '' : root;
}

/** `path` relative to `root` (a folder, with or without its trailing separator), else as is. */
export function relativeSource(path: string, root: string): string {
  if (!root) return path;
  const folder = /[\\/]$/.test(root) ? root : `${root}/`;
  if (path.startsWith(folder)) return path.slice(folder.length);
  // A root given with `/` still strips a Windows path written with `\`, and the other way round.
  const normalised = (text: string) => text.replace(/\\/g, '/');
  return normalised(path).startsWith(normalised(folder)) ? path.slice(folder.length) : path;
}
