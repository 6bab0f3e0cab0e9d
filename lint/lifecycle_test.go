package lint_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/lint"
)

func TestMerge(t *testing.T) {
	day := time.Date(2027, 3, 1, 8, 0, 0, 0, time.UTC)
	row := func(target string, first, last time.Time, status string, resolved time.Time) lint.Finding {
		return lint.Finding{ID: lint.FindingID(lint.CheckCrossref, "a.md", target), Check: lint.CheckCrossref, Severity: lint.SeverityError,
			Path: "a.md", Line: 3, Target: target, Message: "m", FirstSeen: first, LastSeen: last, Status: status, ResolvedAt: resolved}
	}
	open := func(target string, first, last time.Time) lint.Finding {
		return row(target, first, last, lint.StatusOpen, time.Time{})
	}
	seen := func(target string, at time.Time) lint.Finding { return open(target, at, at) } // as Check returns it
	for _, tc := range []struct {
		name      string
		prev, cur []lint.Finding
		now       time.Time
		want      []lint.Finding
		change    lint.Change
	}{
		{name: "new", cur: []lint.Finding{seen("x", day)}, now: day,
			want: []lint.Finding{open("x", day, day)}, change: lint.Change{Opened: 1}},
		{name: "same day keeps last_seen", prev: []lint.Finding{open("x", day, day)}, cur: []lint.Finding{seen("x", day.Add(time.Hour))}, now: day.Add(time.Hour),
			want: []lint.Finding{open("x", day, day)}},
		{name: "next day moves last_seen", prev: []lint.Finding{open("x", day, day)}, cur: []lint.Finding{seen("x", day.Add(24*time.Hour))}, now: day.Add(24 * time.Hour),
			want: []lint.Finding{open("x", day, day.Add(24*time.Hour))}},
		{name: "vanished is resolved", prev: []lint.Finding{open("x", day, day)}, now: day.Add(time.Hour),
			want: []lint.Finding{row("x", day, day, lint.StatusResolved, day.Add(time.Hour))}, change: lint.Change{Resolved: 1}},
		{name: "resolved is kept within retention", prev: []lint.Finding{row("x", day, day, lint.StatusResolved, day)}, now: day.Add(29 * 24 * time.Hour),
			want: []lint.Finding{row("x", day, day, lint.StatusResolved, day)}},
		{name: "resolved is dropped after retention", prev: []lint.Finding{row("x", day, day, lint.StatusResolved, day)}, now: day.Add(31 * 24 * time.Hour),
			want: []lint.Finding{}, change: lint.Change{Dropped: 1}},
		{name: "back after resolved reopens", prev: []lint.Finding{row("x", day, day, lint.StatusResolved, day)}, cur: []lint.Finding{seen("x", day.Add(48*time.Hour))}, now: day.Add(48 * time.Hour),
			want: []lint.Finding{open("x", day.Add(48*time.Hour), day.Add(48*time.Hour))}, change: lint.Change{Opened: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ch := lint.Merge(tc.prev, tc.cur, tc.now, 0)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if ch != tc.change {
				t.Errorf("change = %+v, want %+v", ch, tc.change)
			}
		})
	}
}

// TestFindingID: the id depends on what the problem is, not where it sits.
func TestFindingID(t *testing.T) {
	a := lint.FindingID(lint.CheckCrossref, "pages/a.md", "b.md")
	if a != lint.FindingID(lint.CheckCrossref, "pages/a.md", "b.md") {
		t.Fatal("id not deterministic")
	}
	for _, other := range []string{
		lint.FindingID(lint.CheckCrossref, "pages/a.md", "c.md"),
		lint.FindingID(lint.CheckCrossref, "pages/b.md", "b.md"),
		lint.FindingID(lint.CheckDrift, "pages/a.md", "b.md"),
		lint.FindingID(lint.CheckCrossref, "pages/a.mdb", ".md"),
	} {
		if other == a {
			t.Errorf("ids collide: %s", a)
		}
	}
}
