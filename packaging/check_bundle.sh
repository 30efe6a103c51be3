#!/usr/bin/env bash
# Proves a built bundle (packaging/build_bundle.sh) works on its own: with empty data
# folders, no display, no network where the kernel lets us cut it, and nothing from this
# checkout's virtual environment on the path, it opens the window offscreen, makes the demo
# pair and answers "hi" with it (so the engine process runs inside the bundle), shows the
# welcome view without a prompt, and installs and removes its desktop entry.
set -euo pipefail
cd "$(dirname "$0")/.."
exe="$(pwd)/dist/draftlight/draftlight"
[ -x "$exe" ] || { echo "no bundle at $exe: run packaging/build_bundle.sh first" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
run() {
    # A clean environment: only what a desktop session would give, folders under $tmp.
    env -i HOME="$tmp/home" PATH=/usr/bin:/bin LANG=C.UTF-8 \
        XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" \
        XDG_STATE_HOME="$tmp/state" HF_HUB_OFFLINE=1 QT_QPA_PLATFORM=offscreen \
        $NO_NET "$exe" "$@"
}
NO_NET=""
if unshare -rn true 2>/dev/null; then
    NO_NET="unshare -rn"  # a network namespace with no interface: truly offline
    echo "(running without network: unshare -rn)"
else
    echo "(cannot cut the network here; HF_HUB_OFFLINE=1 only)"
fi
is_png() {  # a PNG at least 1000 px wide
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
    local width=$((16#$(od -An -tx1 -j16 -N4 "$1" | tr -d ' \n')))
    [ "$width" -ge 1000 ]
}

echo "== version"
run --version
echo "== window + engine process inside the bundle: --screenshot with --prompt hi"
run --screenshot "$tmp/answer.png" --prompt hi --timeout 600 | tee "$tmp/out.txt"
grep -q "tok/s" "$tmp/out.txt" || { echo "FAIL: no answer numbers printed" >&2; exit 1; }
is_png "$tmp/answer.png" || { echo "FAIL: no screenshot of the window" >&2; exit 1; }
echo "== welcome view: --screenshot without a prompt, in a new settings file"
run --screenshot "$tmp/welcome.png" --settings "$tmp/fresh.json" | tee "$tmp/out2.txt"
grep -q "welcome view" "$tmp/out2.txt" || { echo "FAIL: welcome view not shown" >&2; exit 1; }
is_png "$tmp/welcome.png" || { echo "FAIL: no welcome screenshot" >&2; exit 1; }
echo "== desktop entry"
run --install-desktop
entry="$tmp/data/applications/draftlight.desktop"
grep -q "^Exec=$exe\$" "$entry" || { echo "FAIL: Exec is not the bundle: $(grep Exec "$entry")" >&2; exit 1; }
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$entry"; fi
run --uninstall-desktop
[ ! -e "$entry" ] || { echo "FAIL: entry left behind" >&2; exit 1; }
if [ -n "${BUNDLE_SHOTS:-}" ]; then  # keep the screenshots (they are made in $tmp)
    mkdir -p "$BUNDLE_SHOTS" && cp "$tmp/answer.png" "$tmp/welcome.png" "$BUNDLE_SHOTS/"
fi
echo "OK: the bundle opens the window offscreen, answers with its own engine process, and installs its desktop entry"
