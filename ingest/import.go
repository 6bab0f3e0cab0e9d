package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/ingest/internal/summary"
	"github.com/ptwiki/pt/ingest/internal/taxonomy"
	"github.com/ptwiki/pt/wiki"
)

// ImportOptions says who imports and how links are read. The zero value of
// every field but ApprovedBy is usable.
type ImportOptions struct {
	ApprovedBy string      // mandatory
	Author     wiki.Author // who imports; kind human for the CLI
	When       time.Time   // zero means now
	// SitePrefixes are URL or path prefixes under which the corpus links to
	// its own pages ("/wiki/" for the Go wiki, "https://go.dev/wiki/");
	// such links are rewritten to the imported pages.
	SitePrefixes []string
	// Strict fails the whole import on the first bad file instead of
	// skipping it.
	Strict bool
	// AppliesTo are globs over the code repository that every imported
	// page governs (see Source.AppliesTo); nil keeps each file's own.
	AppliesTo []string
	// Progress, when set, is called as the import advances: every file is
	// counted twice, once when it is read and checked and once when it is
	// staged, so total is twice the number of files.
	Progress func(done, total int)
}

// ImportResult is what an import did: the batch (nil fields when nothing
// changed), how many files were new, changed and unchanged, and the files
// it skipped with the reason. The count of unchanged files has a name of
// its own, so that the batch's "unchanged" (nothing written) reads in JSON
// as it does for every other command.
type ImportResult struct {
	*wiki.Result
	Imported       int            `json:"imported"`
	Updated        int            `json:"updated"`
	UnchangedFiles int            `json:"unchanged_files"`
	Skipped        []wiki.Skipped `json:"skipped,omitempty"`
}

// errBadFile is wrapped by a strict import's error.
var errBadFile = errors.New("bad file")

// importDoc is one file of the corpus on its way into the space. Its text
// and page are read again when it is rendered (load).
type importDoc struct {
	corpusDoc
	files   *corpusFiles
	data    []byte
	page    *content.Page
	source  string // space path of the source page
	summary string // space path of the summary page
	inPlace bool   // the file is already inside the space: never rewritten
	// st holds the body's links that may point into the corpus: for
	// linkCorpus, then for load to rewrite them in a copy.
	st *content.Structure
	// linkHeadings are the headings of the sections of st's links.
	linkHeadings []string

	// Rendered before the batch takes the write lock, for the head it was
	// read at; staging renders again if the batch lands on another head.
	rendered bool
	head     wiki.Rev
	state    docState
	srcData  []byte        // the source page (the file itself when in place)
	sumData  []byte        // the summary page
	srcPage  *content.Page // srcData, parsed
	sumPage  *content.Page // sumData, parsed
}

// Import migrates a directory of Markdown files into the space as one batch
// (kind import). A file at dir/a/b.md outside the space is copied to
// sources/a/b.md under pt's frontmatter (its own keys kept, links to other
// imported files rewritten to resolve in the space) and summarised at
// summaries/a/b.md; a file already inside the space stays as it is and is
// summarised beside the others. Originals are never moved, changed or
// deleted.
//
// A file whose text is unchanged since it was last imported is left alone,
// so importing the same directory again writes nothing. Bad files (empty,
// binary, not UTF-8, too large, malformed frontmatter, carrying a secret)
// are skipped and listed, or with Strict fail the import before anything is
// written.
func Import(ctx context.Context, s *wiki.Space, dir string, opts ImportOptions) (*ImportResult, error) {
	if err := checkApprover("import", opts.ApprovedBy); err != nil {
		return nil, err
	}
	if strings.TrimSpace(dir) == "" {
		return nil, errors.New("import: name the directory to import")
	}
	if err := checkAppliesTo(ctx, s, opts.AppliesTo); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("import %s: not a directory", dir)
	}
	inSpace := "" // the corpus's place in the space, when it is inside it
	if sd := s.Dir(); sd != "" {
		// filepath.IsLocal, not a "../" prefix: on Windows a folder beside
		// the space is ..\notes, which has no "../" prefix.
		if rel, err := filepath.Rel(realPath(sd), realPath(abs)); err == nil && filepath.IsLocal(rel) {
			inSpace = filepath.ToSlash(rel)
		}
	}
	root := filepath.Base(abs)
	// The batch's id and time are fixed now, as Apply would fix them, so
	// that the pages can be rendered on every core before the lock.
	when := opts.When
	if when.IsZero() {
		when = s.Now()
	}
	when = when.UTC().Truncate(time.Second)
	b := wiki.Batch{Kind: wiki.KindImport, ApprovedBy: opts.ApprovedBy, Author: opts.Author, When: when, ID: wiki.NewBatchID(when)}
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{}
	c := importer{s: s, abs: abs, inSpace: inSpace, root: root, opts: opts}
	if err := c.prepare(ctx, head, res); err != nil {
		return nil, err
	}
	b.Title = c.title()
	wres, err := s.Apply(ctx, b, func(ctx context.Context, tx *wiki.Tx) error {
		if tx.Head() != head || c.staged {
			// Another batch landed, or an attempt staged the files and
			// let go of their text: prepare them again, here.
			head = tx.Head()
			*res = ImportResult{}
			if err := c.prepare(ctx, head, res); err != nil {
				return err
			}
			tx.Describe(c.title(), "")
		}
		res.Imported, res.Updated, res.UnchangedFiles = 0, 0, 0
		return c.stage(ctx, tx, res)
	})
	if err != nil {
		return nil, err
	}
	res.Result = wres
	return res, nil
}

// importer is one import's corpus on its way into the space.
type importer struct {
	s           *wiki.Space
	abs         string // the corpus directory
	inSpace     string // its place in the space, when it is inside it
	root        string // its name
	opts        ImportOptions
	docs        []*importDoc
	total, base int  // progress: the count of all steps, and of those before staging
	staged      bool // the docs were staged, their text is gone
}

func (c *importer) title() string {
	return fmt.Sprintf("import %s (%d files)", c.root, len(c.docs))
}

// prepare reads and checks the corpus and derives its topics with the
// taxonomy at head.
func (c *importer) prepare(ctx context.Context, head wiki.Rev, res *ImportResult) error {
	tax, err := taxonomy.Load(ctx, c.s, head)
	if err != nil {
		return err
	}
	files := &corpusFiles{abs: c.abs}
	docs, err := readCorpus(files, c.inSpace, c.s.Config().SourceLimit(), c.opts, tax, res)
	if err != nil {
		return err
	}
	cds := make([]*corpusDoc, len(docs))
	for i, d := range docs {
		cds[i] = &d.corpusDoc
	}
	if err := deriveTopics(cds, c.root, files.body); err != nil {
		return err
	}
	c.docs, c.staged = docs, false
	c.total, c.base = 2*(len(docs)+len(res.Skipped)), len(docs)+2*len(res.Skipped)
	return nil
}

// stage renders the files' pages on every core and stages them in corpus
// order as they come, so that the commit is the same however the work was
// spread, and a file's text and pages are let go of once staged: the
// batch writes them into its pack and keeps their ids.
func (c *importer) stage(ctx context.Context, tx *wiki.Tx, res *ImportResult) error {
	c.staged = true
	head, b := tx.Head(), tx.Batch()
	read := func(ctx context.Context, p string) (*wiki.PageAt, error) { return c.s.ReadPage(ctx, head, p) }
	// Two files that would write the same page (sources/x.md and x.md
	// imported in place share summaries/x.md) see each other's pages only
	// inside the batch: they are left to stageDoc.
	uses := make(map[string]int, 2*len(c.docs))
	for _, d := range c.docs {
		uses[d.source]++
		uses[d.summary]++
	}
	errs := make([]error, len(c.docs))
	render := func(i int) {
		d := c.docs[i]
		if uses[d.source] > 1 || uses[d.summary] > 1 || ctx.Err() != nil {
			return
		}
		d.rendered, d.head, d.state = true, head, docState{}
		if head != "" {
			d.state = stateOf(ctx, read, d)
		}
		if !d.state.unchanged {
			errs[i] = renderDoc(d, c.opts, b)
		}
	}
	return ordered(len(c.docs), render, func(i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if errs[i] != nil {
			return errs[i]
		}
		d := c.docs[i]
		err := stageDoc(ctx, tx, d, c.opts, res)
		d.data, d.page = nil, nil
		d.srcData, d.sumData, d.srcPage, d.sumPage = nil, nil, nil, nil
		if err == nil && c.opts.Progress != nil {
			c.opts.Progress(c.base+i+1, c.total)
		}
		return err
	})
}

// readCorpus reads and checks every Markdown file of the corpus, matches
// those without topics to the space's taxonomy tax, and finds the links
// between them. Bad files are recorded in res.Skipped (or, with
// opts.Strict, end the import).
func readCorpus(files *corpusFiles, inSpace string, limit int64, opts ImportOptions, tax *taxonomy.Set, res *ImportResult) ([]*importDoc, error) {
	abs := files.abs
	var rels []string
	err := filepath.WalkDir(abs, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(abs, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if inSpace != "" && skipInSpace(path.Join(inSpace, rel)+"/") {
				return filepath.SkipDir
			}
			// A space below the corpus (this one, when the corpus is the
			// folder around it, or another) is not part of it: its hub,
			// spokes and log would become sources, and each import would
			// copy the copies of the last.
			if _, err := os.Stat(filepath.Join(p, content.ConfigFile)); err == nil {
				res.Skipped = append(res.Skipped, wiki.Skipped{Path: rel + "/", Reason: "a pt space (it holds " + content.ConfigFile + "), not part of the corpus"})
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || !strings.EqualFold(path.Ext(rel), ".md") {
			return nil
		}
		if inSpace != "" && skipInSpace(path.Join(inSpace, rel)) {
			return nil
		}
		rels = append(rels, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	sort.Strings(rels)
	type outcome struct {
		doc *importDoc
		err error
	}
	outs := make([]outcome, len(rels))
	var mu sync.Mutex
	read := 0
	all := newCorpusIndex(rels, opts.SitePrefixes)
	parallel(len(rels), func(i int) {
		outs[i].doc, outs[i].err = readDoc(files, rels[i], inSpace, limit, all, tax)
		if opts.Progress != nil {
			mu.Lock()
			read++
			opts.Progress(read, 2*len(rels))
			mu.Unlock()
		}
	})
	var docs []*importDoc
	for i, o := range outs {
		var bad *badFile
		switch {
		case errors.As(o.err, &bad):
			if opts.Strict {
				return nil, fmt.Errorf("import %s: %w: %w", rels[i], errBadFile, bad.err)
			}
			res.Skipped = append(res.Skipped, wiki.Skipped{Path: rels[i], Reason: bad.err.Error()})
		case o.err != nil:
			return nil, fmt.Errorf("import: %w", o.err)
		default:
			docs = append(docs, o.doc)
		}
	}
	linkCorpus(docs, files, opts.SitePrefixes)
	return docs, nil
}

// badFile is a file that cannot become a source, and why.
type badFile struct{ err error }

func (b *badFile) Error() string { return b.err.Error() }

// readDoc reads and checks one file of the corpus and keeps what topic
// derivation and linkCorpus read of it, not its text: its title, headings,
// topics (its own, else the taxonomy's match), and the links that may
// point to a file of the corpus (all: every file found).
func readDoc(files *corpusFiles, rel, inSpace string, limit int64, all *corpusIndex, tax *taxonomy.Set) (*importDoc, error) {
	d := &importDoc{corpusDoc: corpusDoc{rel: rel}, files: files, inPlace: inSpace != ""}
	if d.inPlace {
		d.source = path.Join(inSpace, rel)
		d.summary = summariesDir + strings.TrimPrefix(d.source, sourcesDir)
	} else {
		d.source, d.summary = sourcesDir+rel, summariesDir+rel
	}
	if _, err := content.CleanPath(d.source); err != nil {
		return nil, &badFile{err}
	}
	data, err := os.ReadFile(filepath.Join(files.abs, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	pg, err := checkText(rel, data, limit)
	if err != nil {
		return nil, &badFile{unwrapIngest(rel, err)}
	}
	d.blob = wiki.BlobID(data)
	// Titled like an ingested file: its frontmatter, else its first H1,
	// else its file name, whose words stay searchable as an alias.
	// The body is outlined once, for its title and for its links
	// (linkCorpus); its sections would copy the text.
	st := content.Outline(pg.Body)
	d.headings = make([]string, len(st.Headings))
	for i, h := range st.Headings {
		d.headings[i] = h.Text
	}
	d.st = &content.Structure{}
	for _, l := range st.Links {
		if _, _, ok := all.resolve(rel, l); !ok {
			continue // it cannot resolve among fewer files either
		}
		heading := ""
		for _, h := range st.Headings {
			if h.Line > l.Line {
				break
			}
			if h.Level >= 2 && h.Level <= 3 {
				heading = h.Text
			}
		}
		l.Text = "" // read by neither resolve nor rewriteLinks
		d.st.Links = append(d.st.Links, l)
		d.linkHeadings = append(d.linkHeadings, heading)
	}
	d.title = sourceTitleOf("", pg, st.FirstH1)
	if fromPath := content.TitleFromPath(rel); d.title == "" {
		d.title = fromPath
	} else if pg.Meta.Title == "" {
		d.aliases = cleanAliases([]string{fromPath}, d.title)
	}
	d.topics = cleanTopics(pg.Meta.Topics)
	if len(d.topics) == 0 {
		d.topics = tax.Match(d.names(), pg.Body)
	}
	return d, nil
}

// unwrapIngest drops the "ingest " prefix of checkText's errors: the
// skipped list already says which file.
func unwrapIngest(rel string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "ingest ")
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, rel), ":")
	if n, rest, ok := strings.Cut(msg, ":"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		msg = "line " + n + ":" + rest
	}
	return errors.New(strings.TrimSpace(msg))
}

// skipInSpace reports whether a path inside the space is pt's own (hub,
// spokes, log, summaries, config) and so never imported as a source.
func skipInSpace(p string) bool {
	return wiki.IsIndexPage(p) || wiki.IsIndexPage(strings.TrimSuffix(p, "/")) || strings.HasPrefix(p, summariesDir) || p == "topics/" || p == "log/"
}

// linkCorpus finds the links between the corpus's files (for topics from
// the link graph) and keeps, for the copies that have some, the links that
// load rewrites so that they resolve in the space.
func linkCorpus(docs []*importDoc, files *corpusFiles, prefixes []string) {
	rels := make([]string, len(docs))
	files.where = make(map[string]string, len(docs))
	for i, d := range docs {
		rels[i] = d.rel
		files.where[d.rel] = d.source
	}
	files.ix = newCorpusIndex(rels, prefixes)
	parallel(len(docs), func(i int) {
		d := docs[i]
		for k, l := range d.st.Links {
			if to, _, ok := files.ix.resolve(d.rel, l); ok {
				d.links = append(d.links, docLink{to: to, heading: d.linkHeadings[k]})
			}
		}
		d.linkHeadings = nil
		if d.inPlace || len(d.links) == 0 { // with no link into the corpus there is nothing to rewrite
			d.st = nil
		}
	})
}

// docState is what the space already holds of a file.
type docState struct {
	unchanged bool          // this very revision is imported: nothing to do
	existed   bool          // an earlier revision is: update it in place
	created   time.Time     // of the existing pages
	topics    []string      // of the existing pages, kept on update
	summary   *content.Page // the existing summary, whose unknown keys a rewrite keeps
}

type pageReader func(ctx context.Context, p string) (*wiki.PageAt, error)

// stateOf looks a file up in the space: copies by the origin recorded on
// their source page, files in place by the revision their summary pins.
func stateOf(ctx context.Context, read pageReader, d *importDoc) docState {
	var st docState
	var pa *wiki.PageAt
	var err error
	if d.inPlace {
		if pa, err = read(ctx, d.summary); err != nil {
			return st
		}
		if df := pa.Page.Meta.Provenance.DerivedFrom; len(df) == 1 && df[0].Path == d.source && df[0].Revision == d.blob {
			st.unchanged = true
		}
	} else {
		if pa, err = read(ctx, d.source); err != nil {
			return st
		}
		st.unchanged = pa.Page.Meta.Provenance.Origin == d.rel+"@"+d.blob
	}
	st.existed, st.created, st.topics = true, pa.Page.Meta.Created, pa.Page.Meta.Topics
	switch {
	case st.unchanged:
	case d.inPlace:
		st.summary = pa.Page
	default:
		if sp, err := read(ctx, d.summary); err == nil {
			st.summary = sp.Page
		}
	}
	return st
}

// renderDoc renders d's source and summary pages for batch b, given
// d.state.
func renderDoc(d *importDoc, opts ImportOptions, b wiki.Batch) error {
	if err := d.load(); err != nil {
		return err
	}
	st := d.state
	topics := d.topics
	if st.existed && len(st.topics) > 0 && len(cleanTopics(d.page.Meta.Topics)) == 0 {
		topics = st.topics // keep what the space decided the first time
	}
	author := content.Author{Kind: opts.Author.Kind, Name: opts.Author.Name}
	if author.Kind == "" {
		author.Kind = content.AuthorAgent
	}
	sum := summary.Summarize(d.title, d.page.Body, summary.Options{})
	line := sum.Line
	if line == "" {
		line = d.title
	}
	d.srcPage, d.srcData = d.page, d.data
	if !d.inPlace {
		var err error
		d.srcPage, d.srcData, err = sourceBytes(d.page, sourceMeta{
			title: d.title, aliases: d.aliases, kind: SourceDoc, topics: topics, summary: line, author: author,
			approvedBy: opts.ApprovedBy, origin: d.rel + "@" + d.blob, created: st.created, appliesTo: opts.AppliesTo,
		}, b)
		if err != nil {
			return err
		}
	}
	var err error
	d.sumPage, d.sumData, err = summaryBytes(d.summary, summaryInput{
		title: d.title, aliases: d.aliases, kind: SourceDoc, topics: topics, line: line, source: d.source, revision: wiki.BlobID(d.srcData),
		summary: sum, approvedBy: opts.ApprovedBy, created: st.created, prev: st.summary, appliesTo: appliesOf(opts.AppliesTo, d.page),
	}, b)
	return err
}

// stageDoc stages one file's source and summary, unless the space already
// holds this very revision of it. The pages rendered before the lock are
// used when the batch is built on the head they were rendered for;
// otherwise the file is looked up and rendered again on the new head.
func stageDoc(ctx context.Context, tx *wiki.Tx, d *importDoc, opts ImportOptions, res *ImportResult) error {
	if !d.rendered {
		d.rendered, d.head, d.state = true, tx.Head(), stateOf(ctx, tx.ReadPage, d)
		if !d.state.unchanged {
			if err := renderDoc(d, opts, tx.Batch()); err != nil {
				return err
			}
		}
	}
	switch {
	case d.state.unchanged:
		res.UnchangedFiles++
		return nil
	case d.state.existed:
		res.Updated++
	default:
		res.Imported++
	}
	if _, err := tx.PutRendered(ctx, d.source, d.srcPage, d.srcData, wiki.RoleSource); err != nil {
		return err
	}
	_, err := tx.PutRendered(ctx, d.summary, d.sumPage, d.sumData, wiki.RoleSummary)
	return err
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
