package wiki

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ptwiki/pt/content"
)

// logEntry is one line of log.md. The format is fixed so that people and
// tools can read the log on any git host.
func logEntry(b Batch, pages int) string {
	who := b.Author.Name
	if who == "" {
		who = "pt"
	}
	e := fmt.Sprintf("- %s · %s · `%s` · %s · by %s", b.When.UTC().Format(time.RFC3339), b.Kind, b.ID, oneLine(b.Title), who)
	if b.ApprovedBy != "" {
		e += " · approved by " + oneLine(b.ApprovedBy)
	}
	if b.Reverts != "" {
		e += " · reverts `" + b.Reverts + "`"
	}
	return e + fmt.Sprintf(" · %d pages", pages)
}

var entryMonthRe = regexp.MustCompile(`(?m)^- (\d{4}-\d{2})-\d{2}T`)

const (
	logOpen  = "<!-- pt:log (append-only: one entry per batch) -->"
	logClose = "<!-- /pt:log -->"
)

// appendLog adds the batch's entry to log.md in the same commit. log.md
// holds one month; the first batch of a new month moves it to
// log/YYYY-MM.md, so no write ever rewrites a file that grows with the
// space's whole history.
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
	body := string(data)
	var page *content.Page
	if data != nil {
		pg, err := content.Parse(LogPath, data)
		if err != nil {
			return fmt.Errorf("log: %w", err)
		}
		page = pg
		body = string(pg.Body)
		if m := entryMonthRe.FindStringSubmatch(body); m != nil && m[1] != month {
			archive := LogDir + m[1] + ".md"
			old := content.NewPage(content.Meta{Title: "Log " + m[1], Kind: content.KindLog}, []byte(strings.Replace(body, "# Log", "# Log "+m[1], 1)))
			if _, err := tx.Put(ctx, archive, old, RoleLog); err != nil {
				return err
			}
			page = nil
			body = ""
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

func newLog(tx *Tx) *content.Page {
	var b strings.Builder
	b.WriteString("# Log\n\nOne entry per batch, lint run and reap. Earlier months: ")
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
	b.WriteString("\n\n" + logOpen + "\n" + logClose + "\n")
	return content.NewPage(content.Meta{Title: "Log", Kind: content.KindLog}, []byte(b.String()))
}
