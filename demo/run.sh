#!/usr/bin/env sh
# make demo: lore's main job on a throwaway repository.
#   a real Claude Code transcript is scanned -> a draft lesson -> reviewed and
#   promoted -> committed (the git hook compiles the manifest) -> the agent's
#   PreToolUse hook injects it before the `git push` that would repeat the
#   mistake -> ages and a dry-run consolidation of learnings.md -> an
#   observation crossing its threshold, rendered, deleted and penalised.
# Needs only the two binaries (make build) and git. Touches nothing outside
# a temporary folder.
set -eu

bin=$(cd "${1:-bin}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
transcript="$top/internal/capture/scan/testdata/transcripts/claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl"
work=$(mktemp -d "${TMPDIR:-/tmp}/lore-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

bold='' plain=''
if [ -t 1 ] && [ -z "${NO_COLOR+set}" ]; then bold=$(printf '\033[1m') plain=$(printf '\033[0m'); fi
export PATH="$bin:$PATH" NO_COLOR=1 LORE_GITHOOK_SYNC=1
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/tmp" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Demo" GIT_AUTHOR_EMAIL="demo@example.com" GIT_COMMITTER_NAME="Demo" GIT_COMMITTER_EMAIL="demo@example.com"
mkdir -p "$HOME" "$TMPDIR"

step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "1. A repository with lore: the store and the git hooks that keep its manifest fresh"
git init -q -b main "$work/app" && cd "$work/app"
echo "# app" > README.md && git add README.md && git commit -qm "first"
run lore init

step "2. Scan a real Claude Code session (a public project's transcript, MIT)"
run lore scan "$transcript"

step "3. Review the draft the failed 'git push' produced"
draft=$(ls .lore/lessons | grep '^git-push')
run lore show "$draft"

step "4. Promote it with the scope a reviewer knows: high priority, pushes without an upstream"
run lore promote "$draft" --title "git push fails on a new branch: set the upstream" \
    --priority high --command '^git\s+push\b' --unless='--set-upstream|\s-u\b'
for other in $(ls .lore/lessons | grep -v "^$draft$" | grep '\.md$'); do lore reject "$other" >/dev/null; done
echo "(the other drafts are rejected: a scan never proposes them again)"

step "5. Commit it: lore's post-commit hook compiles the manifest"
run git add .lore
run git commit -qm "lore: lesson from review"
run lore hooks status
ls -l .lore/cache/manifest

step "6. The agent is about to run 'git push origin feature': Claude Code calls the hook"
payload=$(printf '{"session_id":"demo-1","transcript_path":"/tmp/t.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin feature"},"tool_use_id":"toolu_1"}' "$work/app")
printf '$ echo %s | lore-hook claude PreToolUse\n' "'{...\"command\":\"git push origin feature\"...}'"
echo "$payload" | lore-hook claude PreToolUse | sed 's/\\n/\n    /g'

step "7. The same call again in the same session: already injected, nothing repeated"
echo "$payload" | lore-hook claude PreToolUse

step "8. Why it fired, and why not for 'git status': lore match shows every score"
run lore match --tool Bash --command 'git push origin feature'
run lore match --tool Bash --command 'git status'

step "9. learnings.md: ages in git-active days, and a dry-run consolidation"
# A month of history: learnings added on some days, other work on others.
commit_on() { # day message
    GIT_AUTHOR_DATE="2026-03-$1T10:00:00+01:00" GIT_COMMITTER_DATE="2026-03-$1T10:00:00+01:00" \
        git -c core.hooksPath=/dev/null commit -qm "$2"
}
learn() { # day title body
    lore add learning "$2" --body "$3" >/dev/null && git add .lore && commit_on "$1" "learning: $2"
}
learn 01 "npm ci in CI" "Use npm ci in CI pipelines so installs follow the lockfile exactly."
learn 02 "pytest hangs without a TTY" "$(printf 'kind: pitfall\nBare pytest in the agent shell waits for a TTY: run python -m pytest --no-header.')"
learn 03 "Flaky upload test" "The upload test fails when the fixture server starts late: wait for its health check first."
learn 05 "Release checklist" "Bump VERSION and CHANGELOG together before tagging a release."
learn 06 "Package manager for CI" "No longer use npm ci in CI pipelines: the repository moved to pnpm, so installs use pnpm install --frozen-lockfile instead of npm ci."
for d in 08 09 10 11 12 15 16 17 18 19; do echo "$d" >> work.log && git add work.log && commit_on "$d" "work on day $d"; done
learn 20 "Staging deploy needs VPN" "Deploys to staging only work from the VPN; run them from CI otherwise."
learn 24 "Migrations need a lock" "Run database migrations under the advisory lock, never from two deploys at once."
learn 25 "Docs build warning" "The docs build warns about a missing anchor; harmless."
for d in 22 23; do echo "$d" >> work.log && git add work.log && commit_on "$d" "work on day $d"; done
run lore ages --today 2026-03-26
run lore consolidate --dry-run --today 2026-03-26
printf '$ cat tmp/consolidation-report.md\n'
cat tmp/consolidation-report.md

step "10. The learning loop: a pitfall seen in two sessions crosses its threshold (2 sightings: 0.95 >= 0.65)"
run lore observe pitfall "npm ci wipes node_modules" --at 2026-03-20 \
    --details "Use npm install in a dev shell; keep npm ci for CI." --evidence "session-a.jsonl:41"
run lore observe pitfall "NPM ci wipes node_modules!" --at 2026-03-23 --evidence "session-b.jsonl:7"

step "11. lore render writes it as a pitfall item and records its hash"
run lore render

step "12. The user deletes the rendered pitfall: reconcile penalises its observation (x0.3), for good"
rm .lore/pitfalls/PF-*-npm-ci-wipes-node-modules.md
run lore reconcile
run lore observe pitfall "npm ci wipes node_modules" --at 2026-03-25
run lore render

printf '\n%sDone.%s The throwaway repository %s is removed on exit.\n' "$bold" "$plain" "$work/app"
