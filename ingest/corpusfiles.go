package ingest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// errChanged is returned when a file of the corpus changes while it is
// imported.
var errChanged = errors.New("the file changed during the import; import again")

// corpusFiles reads the files of a corpus again when their text is needed.
// An import reads each file once to check it and learn its title, headings
// and links, then again for the words of its subject when topic derivation
// needs them, and again when its pages are rendered: the corpus's text is
// never held whole, only the few files in flight.
type corpusFiles struct {
	abs   string            // the corpus directory
	ix    *corpusIndex      // the corpus's files, to resolve links (linkCorpus)
	where map[string]string // a file's rel path → its source page in the space
}

// read returns the file at rel, which must still be the revision blob, and
// its page.
func (f *corpusFiles) read(rel, blob string) (*content.Page, []byte, error) {
	data, err := os.ReadFile(filepath.Join(f.abs, filepath.FromSlash(rel)))
	if err != nil {
		return nil, nil, fmt.Errorf("import %s: %w", rel, err)
	}
	if wiki.BlobID(data) != blob {
		return nil, nil, fmt.Errorf("import %s: %w", rel, errChanged)
	}
	pg, err := content.Parse(rel, data)
	if err != nil {
		return nil, nil, fmt.Errorf("import %s: %w", rel, err)
	}
	return pg, data, nil
}

// body returns the text of d after its frontmatter, as topic derivation
// reads it.
func (f *corpusFiles) body(d *corpusDoc) ([]byte, error) {
	pg, _, err := f.read(d.rel, d.blob)
	if err != nil {
		return nil, err
	}
	return pg.Body, nil
}

func (f *corpusFiles) dest(rel string) string { return f.where[rel] }

// load reads d's file again for its pages to be rendered: its text and
// page, with the links of a copy rewritten to resolve in the space.
func (d *importDoc) load() error {
	if d.page != nil {
		return nil
	}
	pg, data, err := d.files.read(d.rel, d.blob)
	if err != nil {
		return err
	}
	if d.st != nil {
		pg.Body = rewriteLinks(pg.Body, d.st, d.rel, d.files.ix, d.files.dest)
	}
	d.page, d.data = pg, data
	return nil
}
