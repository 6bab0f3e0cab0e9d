package wiki

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
)

// logEntry is one line of log.md. The format is fixed so that people and
// tools can read the log on any git host; the title and the names are
// escaped as in the spokes (content.EscapeInline).
func logEntry(b Batch, pages int) string {
	who := b.Author.Name
	if who == "" {
		who = "pt"
	}
	e := fmt.Sprintf("- %s · %s · `%s` · %s · by %s", b.When.UTC().Format(time.RFC3339), b.Kind, b.ID, content.EscapeInline(b.Title), content.EscapeInline(who))
	if b.ApprovedBy != "" {
		e += " · approved by " + content.EscapeInline(b.ApprovedBy)
	}
	if b.Reverts != "" {
		e += " · reverts `" + b.Reverts + "`"
	}
	return e + fmt.Sprintf(" · %d pages", pages)
}

var entryMonthRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^- (\d{4}-\d{2})-\d{2}T`) })

const (
	logOpen  = "<!-- pt:log (append-only: one entry per batch) -->"
	logClose = "<!-- /pt:log -->"
)

// appendLog adds the batch's entry to log.md in the same commit. log.md
// holds the current month; the first batch of a later month moves its
// entries to log/YYYY-MM.md, so no write ever rewrites a file that grows
// with the space's whole history. A batch dated earlier than log.md's
// newest entry (one rebuilt by pt sync keeps its date) is added to log.md
// all the same, and goes to its own month's archive at the next move.
func (tx *Tx) appendLog(ctx context.Context) error {
	pages := 0
	for _, p := range tx.order {
		if !derived(tx.staged[p].role) {
			pages++
		}
	}
	entry := logEntry(tx.batch, pages)
	month := tx.batch.When.UTC().Format("2006-01")
	data, err := tx.ReadFile(ctx, LogPath)
	if errors.Is(err, ErrNotFound) {
		data = nil
	} else if err != nil {
		return err
	}
	var page *content.Page
	var body string
	if data != nil {
		pg, err := content.Parse(LogPath, data)
		if err != nil {
			return fmt.Errorf("log: %w", err)
		}
		page, body = pg, string(pg.Body)
		entries := generated(pg.Body, logOpen, logClose)
		if newest := newestMonth(entries); newest != "" && newest < month {
			if err := tx.archiveLog(ctx, entries); err != nil {
				return err
			}
			// The entries move out; what a person wrote around the
			// block stays, and the list of archives is brought up to date.
			body = earlierRe().ReplaceAllLiteralString(body, earlierMonths(tx))
			body = replaceGenerated(body, logOpen, logClose, nil)
		}
	}
	if page == nil {
		page = newLog(tx)
		body = string(page.Body)
	}
	lines := generated([]byte(body), logOpen, logClose)
	lines = append(lines, entry)
	page.Body = []byte(replaceGenerated(body, logOpen, logClose, lines))
	_, err = tx.Put(ctx, LogPath, page, RoleLog)
	return err
}

// newestMonth is the latest YYYY-MM among log entries, "" when none has one.
func newestMonth(entries []string) string {
	newest := ""
	for _, e := range entries {
		if m := entryMonthRe().FindStringSubmatch(e); m != nil && m[1] > newest {
			newest = m[1]
		}
	}
	return newest
}

// archiveLog moves log entries to log/YYYY-MM.md by the month of each,
// adding them to an archive that already exists: an entry of a month
// already archived must join it, never replace it. A line without a date
// goes with the entry before it (the newest month when it comes first).
func (tx *Tx) archiveLog(ctx context.Context, entries []string) error {
	byMonth := map[string][]string{}
	month := newestMonth(entries)
	for _, e := range entries {
		if m := entryMonthRe().FindStringSubmatch(e); m != nil {
			month = m[1]
		}
		byMonth[month] = append(byMonth[month], e)
	}
	months := make([]string, 0, len(byMonth))
	for m := range byMonth {
		months = append(months, m)
	}
	sort.Strings(months)
	for _, m := range months {
		path := LogDir + m + ".md"
		data, err := tx.ReadFile(ctx, path)
		var have []string
		switch {
		case err == nil:
			pg, err := content.Parse(path, data)
			if err != nil {
				return fmt.Errorf("log: %w", err)
			}
			have = generated(pg.Body, logOpen, logClose)
		case !errors.Is(err, ErrNotFound):
			return err
		}
		if _, err := tx.Put(ctx, path, archivePage(m, mergeEntries(have, byMonth[m])), RoleLog); err != nil {
			return err
		}
	}
	return nil
}

// mergeEntries adds to an archive's entries those it lacks, in time order
// (an entry starts with its RFC 3339 time, so text order is time order).
func mergeEntries(have, add []string) []string {
	seen := make(map[string]bool, len(have))
	for _, e := range have {
		seen[e] = true
	}
	out := append([]string(nil), have...)
	for _, e := range add {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	// By time only: entries of the same second keep the order they were
	// appended in; a line without a time stays after the entry before it.
	keys := make(map[int]string, len(out))
	idx := make([]int, len(out))
	last := ""
	for i, e := range out {
		if m := entryTimeRe().FindStringSubmatch(e); m != nil {
			last = m[1]
		}
		keys[i], idx[i] = last, i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([]string, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

var entryTimeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^- (\d{4}-\d{2}-\d{2}T\S+)`) })

// archivePage is one month of the log. Its links are relative to log/, so
// they resolve where the file sits.
func archivePage(month string, entries []string) *content.Page {
	body := "# Log " + month + "\n\nThe entries of " + month + ". The current month is in [the log](../log.md).\n\n"
	body = replaceGenerated(body, logOpen, logClose, entries)
	return content.NewPage(content.Meta{Title: "Log " + month, Kind: content.KindLog}, []byte(body))
}

func newLog(tx *Tx) *content.Page {
	body := "# Log\n\nOne entry per batch, lint run and reap. " + earlierMonths(tx) + "\n\n" + logOpen + "\n" + logClose + "\n"
	return content.NewPage(content.Meta{Title: "Log", Kind: content.KindLog}, []byte(body))
}

// earlierRe finds log.md's list of archives, which each move rewrites.
var earlierRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Earlier months: [^\n]*`) })

// earlierMonths lists the monthly archives, with those this batch writes.
func earlierMonths(tx *Tx) string {
	var b strings.Builder
	b.WriteString("Earlier months: ")
	var months []string
	if es, err := tx.space.List(context.Background(), tx.head, LogDir); err == nil {
		for _, e := range es {
			months = append(months, strings.TrimSuffix(strings.TrimPrefix(e.Path, LogDir), ".md"))
		}
	}
	for p, st := range tx.staged {
		if strings.HasPrefix(p, LogDir) && !st.deleted {
			m := strings.TrimSuffix(strings.TrimPrefix(p, LogDir), ".md")
			if !contains(months, m) {
				months = append(months, m)
			}
		}
	}
	sort.Strings(months)
	if len(months) == 0 {
		b.WriteString("none.")
	}
	for i, m := range months {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "[%s](log/%s.md)", m, m)
	}
	return b.String()
}
