package index

import (
	"strconv"

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
)

// maxTermRunes drops longer tokens (base64 blobs, minified code, hashes glued
// to words): nobody searches for them and they bloat the term dictionary.
const maxTermRunes = 64

// analyzer is bluge's English analyzer (unicode words, possessives, lower case,
// stop words, snowball stemming) plus a length cap. The same analyzer serves
// documents and questions, so their terms meet.
var analyzer = &analysis.Analyzer{
	Tokenizer: tokenizer.NewUnicodeTokenizer(),
	TokenFilters: []analysis.TokenFilter{
		en.NewPossessiveFilter(),
		token.NewLowerCaseFilter(),
		en.StopWordsFilter(),
		en.StemmerFilter(),
		token.NewLengthFilter(1, maxTermRunes),
	},
}

func textField(name, value string) *bluge.TermField {
	return bluge.NewTextField(name, value).WithAnalyzer(analyzer).StoreValue()
}

// blugeDoc turns a Doc into a bluge document. Empty values are left out to keep
// the index lean; decode treats a missing field as its zero value.
func blugeDoc(d Doc) *bluge.Document {
	bd := bluge.NewDocument(d.ID)
	keyword := func(name, v string) {
		if v != "" {
			bd.AddField(bluge.NewKeywordField(name, v).StoreValue())
		}
	}
	text := func(name, v string) {
		if v != "" {
			bd.AddField(textField(name, v))
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
	return bd
}

// decodeField sets the Doc field that a stored bluge field holds. Body is
// skipped when withBody is false, for callers that only rank.
func decodeField(d *Doc, field string, value []byte, withBody bool) {
	switch field {
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
	}
}
