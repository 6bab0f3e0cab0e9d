package index

import (
	"strconv"
	"strings"

	"github.com/blugelabs/bluge"
	"github.com/blugelabs/bluge/analysis"
	"github.com/blugelabs/bluge/analysis/lang/en"
	"github.com/blugelabs/bluge/analysis/token"
	"github.com/blugelabs/bluge/analysis/tokenizer"
)

// Field names inside bluge. Text fields are analysed and searchable; keyword
// fields are exact terms used for filters and deletes; the rest are stored only,
// returned with hits so that callers need not read git to rank.
const (
	fieldID       = "_id" // bluge's own identifier field
	fieldPath     = "path"
	fieldType     = "type"
	fieldStatus   = "status"
	fieldKind     = "kind"
	fieldTitle    = "title"
	fieldHeading  = "heading"
	fieldSummary  = "summary"
	fieldTopics   = "topics"
	fieldBody     = "body"
	fieldAnchor   = "anchor"
	fieldRevision = "rev"
	fieldFamily   = "family"
	fieldInlinks  = "inlinks"
	fieldOrd      = "ord"
	fieldAcronym  = "acronym"
	fieldExpands  = "expands"
)

// maxTermRunes drops longer tokens (base64 blobs, minified code, hashes glued
// to words): nobody searches for them and they bloat the term dictionary.
const maxTermRunes = 64

// analyzer is bluge's English analyzer (unicode words, possessives, lower case,
// stop words, snowball stemming) plus a length cap. The same analyzer serves
// documents and questions, so their terms meet.
var analyzer = englishAnalyzer(en.StemmerFilter())

// englishAnalyzer is analyzer's chain with stem as its stemmer, so that a
// builder may remember stems and still analyse exactly as analyzer does.
func englishAnalyzer(stem analysis.TokenFilter) *analysis.Analyzer {
	return &analysis.Analyzer{
		Tokenizer: tokenizer.NewUnicodeTokenizer(),
		TokenFilters: []analysis.TokenFilter{
			en.NewPossessiveFilter(),
			token.NewLowerCaseFilter(),
			en.StopWordsFilter(),
			stem,
			token.NewLengthFilter(1, maxTermRunes),
		},
	}
}

// Each unit type the retrieve package ranks separately keeps its text in
// fields of its own ("page.body", "section.body", "spoke.body"); Docs of any
// other type use the plain names. A search restricted to pages then walks
// only the pages' postings, not those of the four or five sections each page
// also has: on a 10,000-page space that made the page searches several times
// cheaper. BM25's statistics (document frequency, document count, average
// length) are summed over every partition of a field (see fieldStats), so a
// unit scores exactly as it did when all types shared one field.
var partitions = []string{"page", "section", "spoke"}

// allPartitions are the prefixes of every text field's partitions, the
// shared plain names ("") included.
var allPartitions = append([]string{""}, partitions...)

// partitionOf is the partition a Doc of type typ keeps its text in.
func partitionOf(typ string) string {
	for _, p := range partitions {
		if typ == p {
			return p
		}
	}
	return ""
}

// fieldName is the bluge name of text field name in partition part.
func fieldName(part, name string) string {
	if part == "" {
		return name
	}
	return part + "." + name
}

// baseField strips a text field's partition: the Doc field it stores.
func baseField(field string) string {
	if i := strings.IndexByte(field, '.'); i >= 0 {
		return field[i+1:]
	}
	return field
}

// analysed is an analyzer that hands bluge the tokens pt already has, so
// that a field's text is analysed once, for its length (livestats.go) and
// for bluge.
type analysed analysis.TokenStream

func (a analysed) Analyze([]byte) analysis.TokenStream { return analysis.TokenStream(a) }

// blugeDoc turns a Doc into a bluge document, its text analysed by an, and
// returns its text fields' analysed lengths. Empty values are left out to
// keep the index lean; decode treats a missing field as its zero value.
func blugeDoc(d Doc, an *docAnalyser) (*bluge.Document, []fieldLen) {
	bd := bluge.NewDocument(d.ID)
	var lens []fieldLen
	keyword := func(name, v string) {
		if v != "" {
			bd.AddField(bluge.NewKeywordField(name, v).StoreValue())
		}
	}
	part := partitionOf(d.Type)
	text := func(name, v string) {
		if v == "" {
			return
		}
		f := fieldName(part, name)
		toks := an.analyse(d.Path, v)
		bd.AddField(bluge.NewTextField(f, v).WithAnalyzer(analysed(toks)).StoreValue())
		i := textFieldIndex[f]
		if n := len(lens); n > 0 && lens[n-1].field == i {
			lens[n-1].tokens += uint64(len(toks)) // a repeated field (topics)
		} else {
			lens = append(lens, fieldLen{i, uint64(len(toks))})
		}
	}
	stored := func(name, v string) {
		if v != "" {
			bd.AddField(bluge.NewStoredOnlyField(name, []byte(v)))
		}
	}
	keyword(fieldPath, d.Path)
	keyword(fieldType, d.Type)
	keyword(fieldStatus, d.Status)
	keyword(fieldKind, d.PageKind)
	text(fieldTitle, d.Title)
	text(fieldHeading, d.Heading)
	text(fieldSummary, d.Summary)
	for _, t := range d.Topics {
		text(fieldTopics, t)
	}
	text(fieldBody, d.Body)
	stored(fieldAnchor, d.Anchor)
	stored(fieldRevision, d.Revision)
	stored(fieldFamily, d.Family)
	if d.Inlinks != 0 {
		stored(fieldInlinks, strconv.Itoa(d.Inlinks))
	}
	if d.Ord != 0 {
		stored(fieldOrd, strconv.Itoa(d.Ord))
	}
	stored(fieldAcronym, d.Acronym)
	for _, t := range d.Expands {
		// A keyword field: exact terms, kept out of the text fields'
		// BM25 statistics.
		bd.AddField(bluge.NewKeywordField(fieldExpands, t))
	}
	if len(lens) > 0 {
		bd.AddField(bluge.NewStoredOnlyField(fieldLens, encodeLens(lens)))
	}
	return bd, lens
}

// decodeField sets the Doc field that a stored bluge field holds. Body is
// skipped when withBody is false, for callers that only rank.
func decodeField(d *Doc, field string, value []byte, withBody bool) {
	switch baseField(field) {
	case fieldID:
		d.ID = string(value)
	case fieldPath:
		d.Path = string(value)
	case fieldType:
		d.Type = string(value)
	case fieldStatus:
		d.Status = string(value)
	case fieldKind:
		d.PageKind = string(value)
	case fieldTitle:
		d.Title = string(value)
	case fieldHeading:
		d.Heading = string(value)
	case fieldSummary:
		d.Summary = string(value)
	case fieldTopics:
		d.Topics = append(d.Topics, string(value))
	case fieldBody:
		if withBody {
			d.Body = string(value)
		}
	case fieldAnchor:
		d.Anchor = string(value)
	case fieldRevision:
		d.Revision = string(value)
	case fieldFamily:
		d.Family = string(value)
	case fieldInlinks:
		d.Inlinks, _ = strconv.Atoi(string(value))
	case fieldOrd:
		d.Ord, _ = strconv.Atoi(string(value))
	case fieldAcronym:
		d.Acronym = string(value)
	}
}
