package lint_test

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/lint"
)

func TestMergeFindingsFiles(t *testing.T) {
	d1 := time.Date(2027, 3, 1, 8, 0, 0, 0, time.UTC)
	d1late := d1.Add(5 * time.Hour)
	d2 := d1.Add(24 * time.Hour)
	d3 := d1.Add(48 * time.Hour)
	row := func(target string, line int, first, last time.Time, resolved time.Time) lint.Finding {
		f := lint.Finding{ID: lint.FindingID(lint.CheckCrossref, "pages/a.md", target), Check: lint.CheckCrossref, Severity: lint.SeverityError,
			Path: "pages/a.md", Line: line, Target: target, Message: "link to " + target, FirstSeen: first, LastSeen: last, Status: lint.StatusOpen}
		if !resolved.IsZero() {
			f.Status, f.ResolvedAt = lint.StatusResolved, resolved
		}
		return f
	}
	open := func(target string, first, last time.Time) lint.Finding {
		return row(target, 3, first, last, time.Time{})
	}
	file := func(rows ...lint.Finding) []byte {
		rows = append([]lint.Finding{}, rows...)
		slices.SortFunc(rows, func(a, b lint.Finding) int { // lint's order: path, line, check, id
			return cmp.Or(strings.Compare(a.Path, b.Path), a.Line-b.Line, strings.Compare(a.Check, b.Check), strings.Compare(a.ID, b.ID))
		})
		b, err := json.MarshalIndent(struct {
			Findings []lint.Finding `json:"findings"`
		}{rows}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	for _, tc := range []struct {
		name                  string
		base, local, upstream []byte
		want                  []byte
	}{
		{name: "only upstream linted",
			base: file(open("x", d1, d1)), local: file(open("x", d1, d1)), upstream: file(open("x", d1, d2), open("y", d2, d2)),
			want: file(open("x", d1, d2), open("y", d2, d2))},
		{name: "both ran the first lint on one day: upstream's file stands",
			local: file(open("x", d1late, d1late)), upstream: file(open("x", d1, d1)),
			want: file(open("x", d1, d1))},
		{name: "on different days: earliest first seen, latest last seen",
			local: file(open("x", d2, d2)), upstream: file(open("x", d1, d1)),
			want: file(open("x", d1, d2))},
		{name: "a row only one side added is kept",
			local: file(open("x", d2, d2), open("y", d2, d2)), upstream: file(open("x", d1, d1), open("z", d1, d1)),
			want: file(open("x", d1, d2), open("y", d2, d2), open("z", d1, d1))},
		{name: "line and message come from the row seen last",
			local: file(row("x", 9, d2, d2, time.Time{})), upstream: file(open("x", d1, d1)),
			want: file(row("x", 9, d1, d2, time.Time{}))},
		{name: "open on one side, resolved on the other: open",
			base: file(open("x", d1, d1)), local: file(open("x", d1, d3)), upstream: file(row("x", 3, d1, d1, d2)),
			want: file(open("x", d1, d3))},
		{name: "resolved on both: the earlier resolution",
			base: file(open("x", d1, d1)), local: file(row("x", 3, d1, d1, d3)), upstream: file(row("x", 3, d1, d1, d2)),
			want: file(row("x", 3, d1, d1, d2))},
		{name: "resolved by one, dropped past the retention by the other",
			base: file(row("x", 3, d1, d1, d2)), local: file(), upstream: file(row("x", 3, d1, d1, d2), open("y", d3, d3)),
			want: file(open("y", d3, d3))},
		{name: "seen at the same time on two lines: the same row whichever synced first",
			base: file(open("x", d1, d1)), local: file(row("x", 5, d1, d2, time.Time{})), upstream: file(row("x", 4, d1, d2, time.Time{})),
			want: file(row("x", 4, d1, d2, time.Time{}))},
		{name: "resolved at the same time on two lines: the same row whichever synced first",
			base: file(open("x", d1, d1)), local: file(row("x", 5, d1, d1, d2)), upstream: file(row("x", 4, d1, d1, d2)),
			want: file(row("x", 4, d1, d1, d2))},
		{name: "a row upstream dropped that the local run reopened",
			base: file(row("x", 3, d1, d1, d2)), local: file(open("x", d3, d3)), upstream: file(),
			want: file(open("x", d3, d3))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lint.MergeFindingsFiles(tc.base, tc.local, tc.upstream)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(string(tc.want), string(got)); diff != "" {
				t.Errorf("merged findings.json (-want +got):\n%s", diff)
			}
			// Which replica synced first does not matter.
			if swapped, err := lint.MergeFindingsFiles(tc.base, tc.upstream, tc.local); err != nil || string(swapped) != string(got) {
				t.Errorf("merged the other way round (err %v):\n%s", err, gocmp.Diff(string(got), string(swapped)))
			}
		})
	}
	if _, err := lint.MergeFindingsFiles(nil, file(open("x", d1, d1)), []byte("{not json")); err == nil {
		t.Error("an upstream findings.json that is not JSON was merged")
	}
}
