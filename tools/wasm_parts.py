#!/usr/bin/env python3
"""What each part of the page's wasm costs, in gzip bytes (the page's budget is in gzip).

    tools/wasm_parts.py FILE.wasm

FILE must keep its function names (`wasm-opt -g`; `.ci/wasm-parts.sh` builds one as the
release build is made). Each function is put in one part by its name; a part's figure is its
*marginal* cost: gzip of all the code, less gzip of all the code without that part. Parts
compress against each other, so the marginal figures add up to a little less than the whole.

Generic code is named after the generic, not after who made it: an iterator adapter whose
closure comes from the engine is counted under "std, core, alloc", and a Yew component's view
with every plain view function it calls inlined is counted under "views". Read the parts as
where the bytes are, not as what deleting a module would save.
"""

import gzip
import re
import sys
from collections import defaultdict

from post_build import leb  # the same directory: the build hook reads the wasm too

# (part, test on a function's name), first match wins.
PARTS = [
    ("views (html! of App's and Dataflow's views, their plain view functions inlined)",
     lambda n: "CompStateInner" in n and "::view" in n),
    ("our Yew components' hooks and callbacks",
     lambda n: "abs_playground::ui::components::" in n or "FunctionProvider" in n),
    ("Yew's runtime", lambda n: "yew::" in n or n.startswith("yew")),
    ("engine", lambda n: "abs_engine::" in n),
    ("scenario (JSON, codec, presets)", lambda n: "abs_scenario::" in n),
    ("i18n (narration, languages)", lambda n: "abs_words::" in n),
    ("ui, not views (run, state, layout, permalink, host)", lambda n: "abs_playground" in n),
    ("hash tables (hashbrown, indexmap)", lambda n: "hashbrown" in n or "indexmap" in n),
    ("wasm-bindgen, js-sys, web-sys", lambda n: re.search(r"wasm_bindgen|js_sys|web_sys", n)),
    ("allocator (talc)", lambda n: "talc" in n),
    ("std, core, alloc, generic glue", lambda n: True),
]


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 9, mtime=0))


def sections(b: bytes):
    assert b[:4] == b"\0asm", "not a wasm file"
    i = 8
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        yield sid, b[i:i + size]
        i += size


def imported_functions(imports: bytes) -> int:
    count, i = leb(imports, 0)
    functions = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            n, i = leb(imports, i)
            i += n
        kind = imports[i]
        i += 1
        if kind == 0:  # function: type index
            _, i = leb(imports, i)
            functions += 1
        elif kind == 1:  # table: element type, limits
            flags = imports[i + 1]
            _, i = leb(imports, i + 2)
            if flags & 1:
                _, i = leb(imports, i)
        elif kind == 2:  # memory: limits
            flags = imports[i]
            _, i = leb(imports, i + 1)
            if flags & 1:
                _, i = leb(imports, i)
        elif kind == 3:  # global: type, mutability
            i += 2
        else:
            raise ValueError(f"import kind {kind}")
    return functions


def function_names(custom: bytes):
    n, i = leb(custom, 0)
    if custom[i:i + n] != b"name":
        return None
    i += n
    names = {}
    while i < len(custom):
        sub = custom[i]
        size, i = leb(custom, i + 1)
        end = i + size
        if sub == 1:
            count, k = leb(custom, i)
            for _ in range(count):
                index, k = leb(custom, k)
                length, k = leb(custom, k)
                names[index] = custom[k:k + length].decode("utf-8", "replace")
                k += length
        i = end
    return names


def main(path: str) -> None:
    wasm = open(path, "rb").read()
    secs = list(sections(wasm))
    by_id = defaultdict(list)
    names = None
    for sid, body in secs:
        by_id[sid].append(body)
        if sid == 0 and names is None:
            names = function_names(body)
    if not names:
        sys.exit("wasm_parts: the file has no function names (build it with wasm-opt -g)")
    first = imported_functions(by_id[2][0]) if by_id[2] else 0
    code = by_id[10][0]
    count, i = leb(code, 0)
    parts = defaultdict(list)
    for k in range(count):
        size, i = leb(code, i)
        name = names.get(first + k, "")
        part = next(p for p, test in PARTS if test(name))
        parts[part].append(code[i:i + size])
        i += size
    whole = b"".join(b"".join(v) for v in parts.values())
    whole_gz = gz(whole)

    rows = []
    for part, _ in PARTS:
        bodies = parts.get(part, [])
        raw = sum(map(len, bodies))
        rest = b"".join(b"".join(v) for p, v in parts.items() if p != part)
        rows.append((part, len(bodies), raw, whole_gz - gz(rest)))
    data = b"".join(by_id[11])
    text = b"".join(re.findall(rb"[\x20-\x7e\x80-\xff\n]{4,}", data))
    tables = re.sub(rb"[\x20-\x7e\x80-\xff\n]{4,}", b"", data)
    without_names = b"".join(body for sid, body in secs if sid != 0)

    print(f"{path}: {len(without_names)} bytes without the name section, "
          f"{gz(without_names)} gzip (the release page's is smaller: tools/post_build.py shortens "
          f"the import names)")
    print()
    print(f"| {'part':<82} | {'functions':>9} | {'raw':>8} | {'gzip':>7} |")
    print(f"|{'-' * 84}|{'-' * 10}:|{'-' * 9}:|{'-' * 8}:|")
    for part, n, raw, cost in rows:
        print(f"| {part:<82} | {n:>9} | {raw:>8} | {cost:>7} |")
    print(f"| {'all code (gzip together)':<82} | {count:>9} | {len(whole):>8} | {whole_gz:>7} |")
    print(f"| {'data: text (runs of 4+ printable or UTF-8 bytes)':<82} | {'':>9} "
          f"| {len(text):>8} | {gz(text):>7} |")
    print(f"| {'data: the rest (tables, pointers, numbers)':<82} | {'':>9} "
          f"| {len(tables):>8} | {gz(tables):>7} |")
    print(f"| {'data, all (gzip together)':<82} | {'':>9} | {len(data):>8} | {gz(data):>7} |")
    print()
    print("gzip of a part: what gzip of all the code loses without it (parts compress against")
    print("each other). Generic code counts under its generic's crate: see the script's notes.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
