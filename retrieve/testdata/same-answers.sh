#!/bin/sh
# same-answers.sh OLD_PT NEW_PT SPACE QUESTIONS.jsonl...
#
# Checks that two pt binaries answer alike from the derived index each of
# them builds: a copy of SPACE per binary, its index deleted, then the
# questions of the JSONL files asked with `pt query-kb --json` (the first
# query builds the index; $QUERIES of them, default all, one process each)
# and with `pt eval --json` (all of them, per file, latencies left out),
# and the outputs compared whole. Exits 1 when they differ.
set -eu
old=$1 new=$2 space=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$@" | jq -r '.question' | head -n "${QUERIES:-1000000}" >"$work/questions"
for side in old new; do
	if [ "$side" = old ]; then bin=$old; else bin=$new; fi
	cp -a "$space" "$work/$side"
	find "$work/$side/.git/pt" -type d -name index -prune -exec rm -rf {} + 2>/dev/null || true
	: >"$work/$side.out"
	while IFS= read -r q; do
		printf '%s\n' "$q" >>"$work/$side.out"
		"$bin" --kb "$work/$side" query-kb --json -- "$q" >>"$work/$side.out" 2>&1 || echo "exit $?" >>"$work/$side.out"
	done <"$work/questions"
	for f in "$@"; do
		"$bin" --kb "$work/$side" eval --json --questions "$f" |
			jq -S 'del(.systems[].median_latency_ms)' >>"$work/$side.eval"
	done
done
n=$(wc -l <"$work/questions")
e=$(jq -s 'map(.questions) | add' "$work/old.eval")
if cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.eval" "$work/new.eval"; then
	echo "same answers: $n questions by query-kb, $e by eval, $space"
	exit 0
fi
diff "$work/old.out" "$work/new.out" | head -40
diff "$work/old.eval" "$work/new.eval" | head -40
echo "answers differ: $space"
exit 1
