// A package-lock.json for a consumer project, cut out of this repository's own lockfile, so the
// consumer installs offline from the npm cache that this repository's `npm ci` filled.
//
// Why a lockfile: `npm install name@range` needs the package's full registry document (the
// packument), and `npm ci` here caches only the short one, so an `--offline` install without a
// lockfile fails with ENOTCACHED. With a lockfile npm fetches exactly what `npm ci` fetched, at the
// versions this repository was tested with.

type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
};

export type Lockfile = {
  name: string;
  version: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
};

// Node's lookup: `name` from the package at `from` is the nearest node_modules/name going up.
function resolveLocation(
  packages: Record<string, LockEntry>,
  from: string,
  name: string,
): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (!base) return undefined;
    const parentEnd = base.lastIndexOf('/node_modules/');
    base = parentEnd === -1 ? '' : base.slice(0, parentEnd);
  }
}

// The dependencies npm installs for an entry: required ones, optional ones present in the lockfile
// (platform builds), and peers that are not optional.
function requiredNames(entry: LockEntry): { name: string; optional: boolean }[] {
  const optionalPeers = entry.peerDependenciesMeta ?? {};
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {})
      .filter((name) => !optionalPeers[name]?.optional)
      .map((name) => ({ name, optional: false })),
  ];
}

/**
 * The consumer's lockfile: `root` is the consumer's package.json entry; `laterDependencies` are
 * dependencies of a package the consumer adds afterwards with `npm install <tarball>` (haggle's
 * own), so that npm finds them locked. Every package reached is taken from `source` at the same
 * location, so the tree is the one `npm ci` built here.
 */
export function consumerLockfile(
  source: Lockfile,
  root: LockEntry & { name: string; version: string },
  laterDependencies: Record<string, string>,
): Lockfile {
  const taken: Record<string, LockEntry> = { '': root };
  const queue: { from: string; entry: LockEntry }[] = [
    { from: '', entry: root },
    { from: '', entry: { dependencies: laterDependencies } },
  ];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const { name, optional } of requiredNames(next.entry)) {
      const location = resolveLocation(source.packages, next.from, name);
      if (location === undefined) {
        if (optional) continue;
        throw new Error(
          `${next.from || 'the consumer'} needs ${name}, which package-lock.json does not hold`,
        );
      }
      if (location in taken) continue;
      // dev/peer flags describe this repository's tree, not the consumer's: npm recomputes them.
      const {
        dev: _dev,
        devOptional: _devOptional,
        peer: _peer,
        ...copied
      } = source.packages[location] as LockEntry;
      taken[location] = copied;
      queue.push({ from: location, entry: copied });
    }
  }
  return { name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages: taken };
}
