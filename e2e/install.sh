#!/usr/bin/env sh
# make e2e: install the agent clients from npm into a cache folder, one
# prefix per client and version, and print the LORE_E2E_* assignments the
# tests read. A pinned version already installed is kept; `latest` is
# resolved again on every run.
#   e2e/install.sh CACHE claude=2.1.330 claude=2.1.197 codex=0.169.0 gemini=0.61.0
set -eu
cache=$1; shift
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
claude= codex= gemini=
for spec in "$@"; do
	name=${spec%%=*} version=${spec#*=}
	case $name in
	claude) pkg=@anthropic-ai/claude-code bin=claude ;;
	codex) pkg=@openai/codex bin=codex ;;
	gemini) pkg=@google/gemini-cli bin=gemini ;;
	*) echo "e2e/install.sh: unknown client $name" >&2; exit 2 ;;
	esac
	prefix="$cache/$name-$version"
	exe="$prefix/node_modules/.bin/$bin"
	installed=$(cd "$prefix" 2>/dev/null && node -p "require('$pkg/package.json').version" 2>/dev/null || true)
	if [ "$version" = latest ] || [ "$installed" != "$version" ]; then
		start=$(date +%s)
		npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$pkg@$version" >&2
		# Claude Code ships a native binary set up by its postinstall.
		if [ "$name" = claude ] && ! "$exe" --version >/dev/null 2>&1; then
			node "$prefix/node_modules/$pkg/install.cjs" >&2
		fi
		echo "e2e: installed $pkg@$version in $(($(date +%s) - start))s" >&2
	fi
	v=$("$exe" --version 2>/dev/null | head -1) || { echo "e2e/install.sh: $exe --version failed" >&2; exit 1; }
	echo "e2e: $name $version: $v" >&2
	[ "$version" = latest ] && version=$(cd "$prefix" && node -p "require('$pkg/package.json').version")
	eval "$name=\"\${$name} $version=$exe\""
done
echo "LORE_E2E_CLAUDE='${claude# }' LORE_E2E_CODEX='${codex# }' LORE_E2E_GEMINI='${gemini# }'"
