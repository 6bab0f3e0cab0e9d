package spacegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptwiki/pt/content"
)

// WriteCorpus writes o.Pages Markdown files into dir, flat, as a folder a
// team would import (`pt import`): each about 4 KB, a title, sections of
// sentences drawn from the generator's vocabulary, and three links to
// other files of the folder. Same seed, same files.
func WriteCorpus(dir string, o Options) error {
	o = o.withDefaults()
	g := newGen(o)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, o.Pages)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%d.md", content.Slug(g.title()), i)
	}
	var b strings.Builder
	for _, name := range names {
		b.Reset()
		fmt.Fprintf(&b, "# %s\n\n%s\n", g.title(), g.paragraph())
		for range 5 + g.r.IntN(4) {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n\n%s\n", g.title(), g.paragraph(), g.paragraph())
		}
		b.WriteString("\n## See also\n\n")
		for range 3 {
			to := names[g.r.IntN(len(names))]
			fmt.Fprintf(&b, "- [%s](%s)\n", content.TitleFromPath(to), to)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
