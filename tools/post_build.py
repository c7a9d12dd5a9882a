#!/usr/bin/env python3
"""Trunk's post-build hook (Trunk.toml), for the page's builds (index.html): the two
languages' and the second build's (the Flink view and the editor).

1. Minifies each build's JS loader with terser (from tests/e2e's Node packages, which
   .ci/setup.sh installs): Trunk's own minifier cannot read wasm-bindgen's
   `export { … as default }`, warns, and leaves the loader as it is (9.6 kB gzipped; 7.6 so).
2. Shortens the names of the wasm's imports, the JS functions the loader hands it. wasm-bindgen
   names each after what it calls plus a hash (`__wbg_setAttribute_8a7f…`), and each name is in
   both files; `a`, `b`, … `hu` instead save 6.7 kB gzipped. Every name must be found exactly
   once in the loader, as a key of its import object, or nothing is renamed. The wasm's custom
   sections (the compiler's `producers` and `target_features`, which wasm-opt no longer needs
   by then and browsers ignore) are dropped: 0.2 kB gzipped.
3. Names each build by its content. Trunk names the files of a build it does not load itself
   ("worker", as both language builds are) after the binary only, and a course site that serves
   the page for a long time must not hand a browser a cached loader of one build with the wasm
   of another. So `NAME.js` and `NAME_bg.wasm` become `NAME-HASH.js` and `NAME-HASH_bg.wasm`,
   HASH being of both, and index.html's references to them are rewritten.

4. Minifies index.html's inline scripts with terser (Trunk's HTML minifier leaves them and
   their comments as written): 0.2 kB gzipped.

5. Declares the page's content security policy (POLICY) in a <meta>, with the hashes of the
   inline scripts and style sheet as they are in the end.

6. Packages each built-in lesson (static/lessons/) for course sites: lessons/scorm/NAME-LANG.zip,
   a SCORM 1.2 package per lesson and language the page shows it in (en for en/, zh-Hant and
   zh-Hans for zh/). A package holds this build's index.html and lesson page as they are in
   the end, so this step comes last. `abs-sim lesson --scorm` writes them; it is built
   natively first (release, in the project's target folder, whatever target Trunk's
   environment names).

7. Draws the first picture index.html shows for every preset, mode and language while the
   WebAssembly loads (boot/PRESET[.MODE].LANG.html): `abs-sim shells`, the app rendered natively.
   ~20 s on two processors (`huge` is most of it).

Steps 1, 2, 4 and 6 are for release builds. Anything it cannot do is an error: no step may stop
silently.
"""

import base64
import glob
import hashlib
import os
import re
import subprocess
import sys

BUILDS = ["abs-playground", "abs-playground-zh", "abs-playground-hans", "abs-views", "abs-lessons", "abs-big", "abs-export"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TERSER = os.path.join(ROOT, "tests", "e2e", "node_modules", ".bin", "terser")


def fail(message: str) -> int:
    print(f"post_build.py: {message}", file=sys.stderr)
    return 1


def leb(data: bytes, i: int) -> tuple[int, int]:
    """An unsigned LEB128 number at `i`, and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def short_name(n: int) -> str:
    """`a`, … `z`, `aa`, `ab`, …: the `n`th (from 0)."""
    name = ""
    while True:
        name = chr(ord("a") + n % 26) + name
        n = n // 26 - 1
        if n < 0:
            return name


def skip_limits(body: bytes, k: int) -> int:
    flags = body[k]
    _, k = leb(body, k + 1)
    return leb(body, k)[1] if flags & 1 else k


def shorten_imports(wasm: bytes, js: str) -> tuple[bytes, str]:
    """The wasm with its imports' names shortened and its custom sections dropped, and the
    loader naming the imports alike."""
    if wasm[:8] != b"\0asm\x01\0\0\0":
        raise ValueError("not a WebAssembly module (version 1)")
    out, i, names = bytearray(wasm[:8]), 8, {}
    while i < len(wasm):
        section = wasm[i]
        size, start = leb(wasm, i + 1)
        body, i = wasm[start : start + size], start + size
        if section == 0:  # custom (`producers`, `target_features`): for tools, not browsers
            continue
        if section == 2:  # imports: (module, name, description)*
            count, k = leb(body, 0)
            new_body = bytearray(uleb(count))
            for _ in range(count):
                length, k = leb(body, k)
                module, k = body[k : k + length], k + length
                length, k = leb(body, k)
                name, k = body[k : k + length].decode(), k + length
                described = k
                kind, k = body[k], k + 1
                if kind == 0:  # a function: its type's index
                    _, k = leb(body, k)
                elif kind == 1:  # a table: element type, limits
                    k = skip_limits(body, k + 1)
                elif kind == 2:  # a memory: limits
                    k = skip_limits(body, k)
                elif kind == 3:  # a global: value type, mutability
                    k += 2
                else:
                    raise ValueError(f"import {name}: unknown kind {kind}")
                short = names.setdefault(name, short_name(len(names)))
                new_body += uleb(len(module)) + module + uleb(len(short)) + short.encode()
                new_body += body[described:k]
            body = bytes(new_body)
        out += bytes([section]) + uleb(len(body)) + body
    # Each is a key of the loader's import object (`{…,NAME:function(…){…},…}`), once.
    for name, short in names.items():
        key = re.compile(r"(?<=[{,])" + re.escape(name) + r"(?=:)")
        js, count = key.subn(short, js)
        if count != 1 or re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", js):
            raise ValueError(f"the loader does not name the import {name} once, as a key")
    return bytes(out), js


def main() -> int:
    stage = os.environ.get("TRUNK_STAGING_DIR")
    if not stage:
        return fail("TRUNK_STAGING_DIR is not set (Trunk runs this after a build)")
    release = os.environ.get("TRUNK_PROFILE") == "release"
    if release and not os.path.exists(TERSER):
        return fail(f"{TERSER} is missing: run .ci/setup.sh (make serve and make test do)")
    index_path = os.path.join(stage, "index.html")
    with open(index_path, encoding="utf-8") as f:
        index = f.read()
    for name in BUILDS:
        files = {ext: os.path.join(stage, name + ext) for ext in (".js", "_bg.wasm")}
        if release:
            js = files[".js"]
            subprocess.run([TERSER, js, "--module", "--compress", "--mangle", "-o", js], check=True)
        contents = {}
        for ext, path in files.items():
            with open(path, "rb") as f:
                contents[ext] = f.read()
        if release:
            try:
                wasm, loader = shorten_imports(contents["_bg.wasm"], contents[".js"].decode())
            except ValueError as e:
                return fail(f"{name}: {e}")
            contents = {".js": loader.encode(), "_bg.wasm": wasm}
        hashed = f"{name}-{hashlib.sha256(b''.join(contents.values())).hexdigest()[:16]}"
        # The loading bar's whole (index.html's routes, `size: 0` as written): the wasm's bytes.
        if name != "abs-export":
            sized = re.compile(r"(\./" + re.escape(name) + r"_bg\.wasm[\"'`], size: )0\b")
            index, count = sized.subn(lambda m: m.group(1) + str(len(contents["_bg.wasm"])), index)
            if count != 1:
                return fail(f"index.html gives ./{name}_bg.wasm's size {count} times, not once")
        for ext, path in files.items():
            # A string in the inline script, in whatever quotes the HTML minifier chose.
            old = re.compile(r"(?<=[\"'`])\./" + re.escape(name + ext) + r"(?=[\"'`])")
            index, count = old.subn(f"./{hashed}{ext}", index)
            if count != 1:
                return fail(f"index.html names ./{name}{ext} {count} times, not once")
            with open(os.path.join(stage, hashed + ext), "wb") as f:
                f.write(contents[ext])
            os.remove(path)
    if release:
        index = minify_inline_scripts(index)
    # The skipped `rel="rust"` link (it only stops Trunk building the crate's default binary
    # on its own) is left in the page by Trunk, marked but inert.
    index = re.sub(r"<link data-trunk [^>]*data-trunk-skip[^>]*>", "", index)
    try:
        index = with_policy(index)
    except ValueError as e:
        return fail(str(e))
    with open(index_path, "w", encoding="utf-8") as f:
        f.write(index)
    if release:
        try:
            scorm_packages(os.path.abspath(stage))
        except (ValueError, OSError) as e:
            return fail(str(e))
    try:
        first_pictures(os.path.abspath(stage))
    except (ValueError, OSError) as e:
        return fail(str(e))
    return 0


def first_pictures(stage: str) -> None:
    """Step 7: STAGE/boot/, the first picture of every preset, mode and language."""
    run = subprocess.run([abs_sim(), "shells", stage], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(f"abs-sim shells failed:\n{run.stderr.strip()}")


# Step 6: the languages each folder of built-in lessons is packaged in (`abs-sim lesson
# --lang`): the Chinese lessons, written in Traditional characters, also in Simplified.
LESSON_LANGS = {"en": ["en"], "zh": ["zh-Hant", "zh-Hans"]}


def abs_sim() -> str:
    """abs-sim built natively (release, the project's target folder): the path of the binary."""
    env = dict(os.environ)
    # Trunk's environment may name the page's target; abs-sim runs here.
    env.pop("CARGO_BUILD_TARGET", None)
    build = subprocess.run(
        ["cargo", "build", "--release", "--locked", "--quiet", "--bin", "abs-sim"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        raise ValueError(f"cargo build --release --bin abs-sim failed:\n{build.stderr.strip()}")
    target = os.path.join(ROOT, env.get("CARGO_TARGET_DIR") or "target")
    return os.path.join(target, "release", "abs-sim")


def scorm_packages(stage: str) -> None:
    """STAGE/lessons/scorm/NAME-LANG.zip for every built-in lesson and its languages."""
    program = abs_sim()
    out = os.path.join(stage, "lessons", "scorm")
    os.makedirs(out, exist_ok=True)
    for folder, langs in LESSON_LANGS.items():
        lessons = sorted(glob.glob(os.path.join(ROOT, "static", "lessons", folder, "*.json")))
        if not lessons:
            raise ValueError(f"static/lessons/{folder} has no lesson to package")
        for path in lessons:
            lesson = os.path.relpath(path, ROOT)
            name = os.path.basename(path)[: -len(".json")]
            for lang in langs:
                zip_path = os.path.join(out, f"{name}-{lang}.zip")
                args = ["lesson", lesson, "--scorm", zip_path, "--lang", lang, "--site", stage]
                run = subprocess.run([program, *args], cwd=ROOT, capture_output=True, text=True)
                if run.returncode != 0:
                    # The steps' lines with an error, then why nothing was written.
                    errors = [l for l in run.stdout.splitlines() if '"error"' in l]
                    said = "\n".join([*errors, run.stderr.strip()])
                    raise ValueError(f"abs-sim {' '.join(args[:2])} --lang {lang} failed:\n{said}")


# The page's content security policy: scripts and styles from the page's own origin, and
# the inline ones index.html has by their hashes (filled in below) — nothing that needs
# 'unsafe-inline'; wasm may be compiled; no plugins; no <base>; forms go nowhere. Images
# may be data: and blob: URLs (the PNG export draws the SVG through one). frame-ancestors is
# not set (a <meta> policy cannot, and course pages must be able to embed the player).
# Connections may go to the page's origin and to an xAPI learning record store the lesson
# page is given (static/lms.js): any over HTTPS, or one on this computer's loopback.
POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {scripts}; "
    "style-src 'self' {styles}; img-src 'self' data: blob:; "
    "connect-src 'self' https: http://127.0.0.1:* http://localhost:*; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def with_policy(index: str) -> str:
    """index.html declaring POLICY in a <meta> right after its charset, with the hashes of
    its inline scripts and style sheets as they are now (so: after every other change)."""

    def hashes(tag: str) -> str:
        bodies = re.findall(rf"<{tag}(?![^>]*\ssrc=)[^>]*>(.*?)</{tag}>", index, flags=re.S)
        if not bodies:
            raise ValueError(f"index.html has no inline <{tag}>: is the policy still right?")
        digests = (hashlib.sha256(b.encode()).digest() for b in bodies)
        return " ".join(f"'sha256-{base64.b64encode(d).decode()}'" for d in digests)

    meta = f'<meta http-equiv=Content-Security-Policy content="{POLICY.format(scripts=hashes("script"), styles=hashes("style"))}">'
    out, count = re.subn(r"(<meta charset=[^>]*>)", lambda m: m.group(1) + meta, index, count=1)
    if count != 1:
        raise ValueError("index.html has no <meta charset> to put the policy after")
    return out


def minify_inline_scripts(index: str) -> str:
    """Each `<script>` of index.html without a `src`, minified; a module as a module."""

    def minify(m: re.Match) -> str:
        module = ["--module"] if 'type="module"' in m.group(1) or "type=module" in m.group(1) else []
        out = subprocess.run(
            [TERSER, *module, "--compress", "--mangle"],
            input=m.group(2),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return f"{m.group(1)}{out}</script>"

    return re.sub(r"(<script(?![^>]*\ssrc=)[^>]*>)(.*?)</script>", minify, index, flags=re.S)


if __name__ == "__main__":
    sys.exit(main())
