package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newIngestCmd) }

func newIngestCmd(e *env) *cobra.Command {
	var src ingest.Source
	cmd := &cobra.Command{
		Use:   "ingest [FILE|-]",
		Short: "add a source, its summary and links back to related pages as one commit",
		Long: "pt ingest writes a source verbatim under sources/, an extractive summary under summaries/\n" +
			"pinned to it, a link back on each --related page a person does not own, and the spokes,\n" +
			"hub and log entry, all as one commit that pt revert undoes. It reads FILE, or stdin for -\n" +
			"or no argument. A source already in the space (--update PATH, the same file again, or the\n" +
			"same slug) is revised: a new revision of the same page, its summary regenerated and pinned\n" +
			"to it; the same text again refreshes a summary left behind by edits made in git. Nothing\n" +
			"is written when the source is refused (empty, binary, not UTF-8, too large, malformed\n" +
			"frontmatter, or carrying a secret).",
		Args: argsN(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(src.ApprovedBy) == "" {
				return usageError{errors.New("--approved-by is required: name the person who approved this ingest")}
			}
			name := "-"
			if len(args) == 1 {
				name = args[0]
			}
			body, err := readSource(e, name, src.Title != "" || src.Update != "")
			if err != nil {
				return err
			}
			src.Body = body
			if src.Title == "" && src.Update == "" && name != "-" {
				// Titled by its frontmatter, else its first H1, else its
				// file name; the file name's words stay searchable as an
				// alias, and its pages are still named after the file.
				if pg, err := content.Parse(name, body); err == nil && pg.Meta.Title == "" {
					src.Aliases = []string{content.TitleFromPath(name)}
				}
			}
			if name != "-" {
				src.File = name
			}
			src.Author = e.identity()
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := ingest.Ingest(e.ctx, s, src)
			if errors.Is(err, ingest.ErrBadKind) {
				return usageError{err} // a bad --kind value
			}
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printIngest(w, res) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&src.Title, "title", "", "the source's title (default: its frontmatter title, else its first # heading, else the file name)")
	f.StringVar(&src.ApprovedBy, "approved-by", "", "who approved the ingest (required)")
	f.StringVar(&src.Kind, "kind", "", "the source's kind: "+strings.Join(ingest.SourceKinds(), ", ")+" (default other)")
	f.StringVar(&src.Summary, "summary", "", "a one-line summary (default: extracted from the text)")
	f.StringArrayVar(&src.Topics, "topic", nil, "a topic of the source (repeatable; default: assigned from the space's taxonomy)")
	f.StringArrayVar(&src.Related, "related", nil, "a page to link back to the new summary (repeatable)")
	f.StringVar(&src.Slug, "slug", "", "the name of sources/<slug>.md (default: from the title); a source already there is revised")
	f.StringVar(&src.Update, "update", "", "revise this source page of the space (a path such as sources/x.md)")
	f.StringArrayVar(&src.AppliesTo, "applies-to", nil, "a glob of code paths the source governs, e.g. 'internal/ledger/**' (repeatable)")
	return cmd
}

// readSource reads the source from a file or stdin (which needs a title,
// or the page the source revises, to name it), refusing more than the
// largest source any space accepts (read one byte past it so the ingest
// reports the size) without reading a huge file whole.
func readSource(e *env, name string, named bool) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		if !named {
			return nil, usageError{errors.New("--title is required when reading stdin")}
		}
		r = e.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, fmt.Errorf("%s is a directory (use pt import for a directory)", name)
		}
		r = f
	}
	return io.ReadAll(io.LimitReader(r, maxReadBytes+1))
}

// maxReadBytes bounds what pt ingest reads: far above any sensible
// max_source_bytes, so a bigger file is still reported as too large.
const maxReadBytes = 256 << 20

// printIngest renders an ingest's result; an ingest that wrote nothing
// says why.
func printIngest(w io.Writer, res *wiki.Result) {
	printResult(w, res)
	if res.Unchanged {
		for _, s := range res.NotUpdated {
			fmt.Fprintf(w, "  %s: %s\n", s.Path, s.Reason)
		}
	}
}
