#!/bin/bash
# same-answers.sh OLD_PT NEW_PT SPACE QUESTIONS.jsonl...
#
# Checks that two pt binaries answer alike from the derived index each of
# them builds: a copy of SPACE per binary, its index deleted, then the
# questions of the JSONL files asked with `pt query-kb --json` (the first
# query builds the index; $QUERIES of them, default all, one process each)
# and with `pt eval --json` (all of them, per file, latencies left out),
# and the outputs compared whole. A question whose answers differ is
# asked of OLD's index again, three times by each binary: when OLD's own
# answers to it vary, it is reported as unstable, not as a difference.
# Exits 1 when answers differ.
set -eu
old=$1 new=$2 space=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$@" | jq -r '.question' | head -n "${QUERIES:-1000000}" >"$work/questions"
ask() { # binary space question
	"$1" --kb "$2" query-kb --json -- "$3" 2>&1 || echo "exit $?"
}
for side in old new; do
	if [ "$side" = old ]; then bin=$old; else bin=$new; fi
	cp -a "$space" "$work/$side"
	find "$work/$side/.git/pt" -type d -name index -prune -exec rm -rf {} + 2>/dev/null || true
	mkdir "$work/$side.q"
	i=0
	while IFS= read -r q; do
		i=$((i + 1))
		ask "$bin" "$work/$side" "$q" >"$work/$side.q/$i"
	done <"$work/questions"
	for f in "$@"; do
		"$bin" --kb "$work/$side" eval --json --questions "$f" |
			jq -S 'del(.systems[].median_latency_ms)' >"$work/$side.eval.$(basename "$f")"
	done
done
n=$(wc -l <"$work/questions")
differ=0 unstable=0 evals=0 i=0
while IFS= read -r q; do
	i=$((i + 1))
	cmp -s "$work/old.q/$i" "$work/new.q/$i" && continue
	seen=$(for k in 1 2 3; do ask "$old" "$work/old" "$q" | md5sum; ask "$new" "$work/old" "$q" | md5sum; done | sort -u | wc -l)
	if [ "$seen" -gt 1 ]; then
		unstable=$((unstable + 1))
		echo "unstable in OLD itself: $q"
	else
		differ=$((differ + 1))
		echo "differs: $q"
		diff "$work/old.q/$i" "$work/new.q/$i" | head -20
	fi
done <"$work/questions"
for f in "$@"; do
	b=$(basename "$f")
	if ! cmp -s "$work/old.eval.$b" "$work/new.eval.$b"; then
		ids=$(diff <(jq -c '.results[]' "$work/old.eval.$b") <(jq -c '.results[]' "$work/new.eval.$b") |
			sed -n 's/^< //p' | jq -r '.id' | tr '\n' ' ')
		echo "eval differs: $b: $ids"
		evals=1
	fi
done
echo "$space: $n questions by query-kb: $differ differ, $unstable unstable in OLD itself; eval outputs differ: $evals"
[ "$differ" -eq 0 ]
