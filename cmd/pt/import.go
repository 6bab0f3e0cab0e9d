package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ptwiki/pt/ingest"
)

func init() { register(newImportCmd) }

func newImportCmd(e *env) *cobra.Command {
	var opts ingest.ImportOptions
	cmd := &cobra.Command{
		Use:   "import DIR",
		Short: "import a directory of Markdown files as sources with summaries, in one commit",
		Long: "pt import copies each Markdown file of DIR to sources/<path> (files already inside the\n" +
			"space stay where they are), summarises it at summaries/<path>, assigns topics from the\n" +
			"space's taxonomy or the corpus's folders and index pages, and rewrites links between the\n" +
			"files so they resolve in the space. One commit; pt revert undoes it. Files unchanged since\n" +
			"the last import are left alone; bad files are skipped and listed (or, with --strict, fail\n" +
			"the import).",
		Args: argsN(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(opts.ApprovedBy) == "" {
				return usageError{errors.New("--approved-by is required: name the person who approved this import")}
			}
			opts.Author = e.identity()
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			var bar *progressbar.ProgressBar
			if f, ok := e.stderr.(*os.File); ok && !e.json && term.IsTerminal(int(f.Fd())) {
				opts.Progress = func(done, total int) {
					if bar == nil {
						bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("importing"),
							progressbar.OptionClearOnFinish(), progressbar.OptionShowCount(), progressbar.OptionThrottle(100e6))
					}
					_ = bar.Set(done)
				}
			}
			res, err := ingest.Import(e.ctx, s, args[0], opts)
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			return e.emit(res, func(w io.Writer) { printImport(w, res) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.ApprovedBy, "approved-by", "", "who approved the import (required)")
	f.StringArrayVar(&opts.SitePrefixes, "site-prefix", nil, "a URL or path prefix under which the corpus links to its own pages, e.g. /wiki/ (repeatable)")
	f.StringArrayVar(&opts.AppliesTo, "applies-to", nil, "a glob of code paths every imported page governs, e.g. 'internal/ledger/**' (repeatable)")
	f.BoolVar(&opts.Strict, "strict", false, "fail, writing nothing, when any file is bad (default: skip and list it)")
	return cmd
}

func printImport(w io.Writer, res *ingest.ImportResult) {
	if res.Result == nil || res.Result.Unchanged {
		fmt.Fprintf(w, "import: nothing to change (%d files unchanged)\n", res.UnchangedFiles)
	} else {
		fmt.Fprintf(w, "import batch %s: commit %s: %d new, %d updated, %d unchanged, %d paths written\n",
			res.Batch, short(res.Commit), res.Imported, res.Updated, res.UnchangedFiles, len(res.Pages))
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "  skipped  %s: %s\n", s.Path, s.Reason)
	}
}
