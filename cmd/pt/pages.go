package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newPagesCmd) }

// pageList is the JSON of pt pages and of pt topics TOPIC.
type pageList struct {
	Topic string          `json:"topic,omitempty"`
	Pages []wiki.PageInfo `json:"pages"`
}

// contentKinds are the kinds of content pages; pages --kind also takes a
// source kind.
func contentKinds() []string {
	return []string{content.KindSource, content.KindSummary, content.KindPage, content.KindSynthesis, content.KindRetrospective}
}

// pageKinds is what pages --kind accepts.
func pageKinds() []string { return append(contentKinds(), ingest.SourceKinds()...) }

// pageStatuses is what pages --status accepts: the lifecycle of DESIGN.md §3.
func pageStatuses() []string {
	return []string{content.StatusActive, content.StatusStale, "superseded", "obsolete", "archived",
		content.StatusRetracted, content.StatusExpired}
}

func newPagesCmd(e *env) *cobra.Command {
	var f wiki.PageFilter
	cmd := &cobra.Command{
		Use:   "pages",
		Short: "list the space's pages: path, kind, status and title",
		Long: "pages lists the content pages of the space at HEAD (not the hub, spokes or log), sorted by path.\n" +
			"--kind matches a page's kind (" + strings.Join(contentKinds(), ", ") + ") or a source's\n" +
			"kind (" + strings.Join(ingest.SourceKinds(), ", ") + ").",
		Args: argsN(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.Kind != "" && !slices.Contains(pageKinds(), strings.ToLower(f.Kind)) {
				return usageError{fmt.Errorf("--kind %q: want one of %s", f.Kind, strings.Join(pageKinds(), ", "))}
			}
			if f.Status != "" && !slices.Contains(pageStatuses(), strings.ToLower(f.Status)) {
				return usageError{fmt.Errorf("--status %q: want one of %s", f.Status, strings.Join(pageStatuses(), ", "))}
			}
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			ps, err := s.Catalog(e.ctx, "", f)
			if err != nil {
				return err
			}
			l := &pageList{Pages: ps}
			return e.emit(l, func(w io.Writer) { printPages(w, l) })
		},
	}
	cmd.Flags().StringVar(&f.Topic, "topic", "", "only pages of this topic")
	cmd.Flags().StringVar(&f.Kind, "kind", "", "only pages of this kind or source kind")
	cmd.Flags().StringVar(&f.Status, "status", "", "only pages of this status: "+strings.Join(pageStatuses(), ", "))
	return cmd
}

// printPages renders a page list: one line per page, then the count.
func printPages(w io.Writer, l *pageList) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range l.Pages {
		kind := p.Kind
		if p.SourceKind != "" {
			kind += " (" + p.SourceKind + ")"
		}
		status := ""
		if p.Status != content.StatusActive {
			status = "[" + p.Status + "] "
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", p.Path, kind, status, p.Title)
	}
	tw.Flush()
	what := count(len(l.Pages), "page")
	if l.Topic != "" {
		what += " in topic " + l.Topic
	}
	fmt.Fprintln(w, what)
}
