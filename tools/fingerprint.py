#!/usr/bin/env python3
"""Trunk's post-build hook (Trunk.toml): names each build of the page by its content.

Trunk names the files of a build it does not load itself ("worker", as both language builds
are: index.html) after the binary only. A course site that serves the page for a long time
must not hand a browser a cached loader of one build with the wasm of another, so this renames
`NAME.js` and `NAME_bg.wasm` to `NAME-HASH.js` and `NAME-HASH_bg.wasm`, HASH being of both
files, and rewrites index.html's references to them. A reference it cannot find is an error:
the hashing must not stop silently.
"""

import hashlib
import os
import sys

BUILDS = ["abs-playground", "abs-playground-zh"]


def main() -> int:
    stage = os.environ.get("TRUNK_STAGING_DIR")
    if not stage:
        print("fingerprint.py: TRUNK_STAGING_DIR is not set (run it from Trunk)", file=sys.stderr)
        return 1
    index_path = os.path.join(stage, "index.html")
    with open(index_path, encoding="utf-8") as f:
        index = f.read()
    for name in BUILDS:
        files = {ext: os.path.join(stage, name + ext) for ext in (".js", "_bg.wasm")}
        digest = hashlib.sha256()
        for path in files.values():
            with open(path, "rb") as f:
                digest.update(f.read())
        hashed = f"{name}-{digest.hexdigest()[:16]}"
        for ext, path in files.items():
            old, new = f'"./{name}{ext}"', f'"./{hashed}{ext}"'
            if index.count(old) != 1:
                print(f"fingerprint.py: index.html names {old} {index.count(old)} times, "
                      "not once", file=sys.stderr)
                return 1
            index = index.replace(old, new)
            os.replace(path, os.path.join(stage, hashed + ext))
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
