#!/usr/bin/env bash
# Regenerates the example space (space/) and the transcript of the commands
# that made it (transcript.md) from the five sources in input/, with real
# pt commands at a fixed time. pt must be on PATH (go install ./cmd/pt).
#
#	docs/example/generate.sh [OUT]	# OUT defaults to docs/example
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
export PT_TEST_CLOCK=2026-11-29T18:00:00Z
export GIT_AUTHOR_NAME=dana GIT_AUTHOR_EMAIL=dana@example.com
export GIT_COMMITTER_NAME=dana GIT_COMMITTER_EMAIL=dana@example.com
export HOME=${TMPDIR:-/tmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/input" "$work/input"
cd "$work"
# The sources and the space share one repository, as a team's notes and
# its knowledge base often do, so each source page records where it came
# from relative to the repository (provenance.origin).
git init -q .

# step prints a command and its output as a Markdown code block.
step() {
	local line="" a
	for a in "$@"; do
		case $a in
		*" "*) line+=" \"$a\"" ;;
		*) line+=" $a" ;;
		esac
	done
	printf '\n```\n$%s\n' "$line"
	"$@" 2>&1 | sed "s#$work/##g"
	printf '```\n'
}

{
	cat <<'HEAD'
# Transcript

The commands that made this example space, with their output, as
[generate.sh](generate.sh) ran them (at a fixed time, 2026-11-29 18:00 UTC).
Commit hashes and batch ids differ from run to run.
HEAD
	printf '\n## A space and five sources\n'
	step pt init kb --name checkout-team
	step pt --kb kb ingest input/weekly-sync-2026-11-24.md --kind meeting-notes --approved-by dana
	step pt --kb kb ingest input/postmortem-retry-storm.md --kind postmortem --related summaries/weekly-sync-2026-11-24.md --approved-by dana
	step pt --kb kb ingest input/adr-0007-message-queue.md --kind decision --approved-by dana
	step pt --kb kb ingest input/chat-jetstream-retention.md --kind chat --approved-by dana
	step pt --kb kb ingest input/howto-replay-order-events.md --kind doc --approved-by dana
	printf '\n## Browse\n'
	step pt --kb kb topics
	step pt --kb kb pages
	printf '\n## Questions\n'
	step pt --kb kb query-kb "Why did we choose JetStream over Kafka?"
	step pt --kb kb query-kb "How long do we keep order events in JetStream?"
	step pt --kb kb query-kb "Who is changing the backoff of the SDKs, and by when?"
	step pt --kb kb query-kb "How do I replay order events after an invoicing bug?"
	printf '\n## History\n'
	step pt --kb kb log
} >transcript.md

rm -rf "$out/space"
git -C kb ls-files | while read -r f; do
	mkdir -p "$out/space/$(dirname "$f")"
	cp "kb/$f" "$out/space/$f"
done
cp transcript.md "$out/transcript.md"
