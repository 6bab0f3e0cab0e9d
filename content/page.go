package content

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxPageSize bounds what Parse accepts; larger files are refused before any
// Markdown or YAML work is done on them.
const MaxPageSize = 8 << 20

// ErrBinary, ErrInvalidUTF8 and ErrTooLarge are the reasons a file is not a
// page at all; ParseError wraps them.
var (
	ErrBinary      = errors.New("binary content (NUL byte)")
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	ErrTooLarge    = errors.New("too large")
	ErrEmpty       = errors.New("empty page")
)

// ParseError says where a page failed to parse, so that a person can fix it.
type ParseError struct {
	Path string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Page is a parsed page: its frontmatter as Meta, and its body exactly as it
// was written. The original frontmatter is remembered so that keys pt does
// not know survive a rewrite, and an unchanged page serializes to its bytes.
type Page struct {
	Meta Meta
	Body []byte

	head     []byte     // the frontmatter as read, fences included
	node     *yaml.Node // the frontmatter mapping as read
	parsed   Meta       // Meta as read, to detect changes
	hadFront bool
}

// NewPage returns a page with the given meta and body, as for a page that
// does not exist yet.
func NewPage(m Meta, body []byte) *Page {
	return &Page{Meta: m, Body: body}
}

var fence = []byte("---")

// splitFrontmatter returns the YAML text between a leading "---" line and the
// next "---" (or "...") line, the body after it, and the line on which the
// body starts (1-based). ok is false when the file has no frontmatter.
func splitFrontmatter(data []byte) (front, body []byte, bodyLine int, ok bool, err error) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found || !bytes.Equal(bytes.TrimRight(first, " \t\r"), fence) {
		return nil, data, 1, false, nil
	}
	line := 2
	off := len(first) + 1
	for len(rest) > 0 {
		l, next, _ := bytes.Cut(rest, []byte("\n"))
		t := bytes.TrimRight(l, " \t\r")
		if bytes.Equal(t, fence) || bytes.Equal(t, []byte("...")) {
			end := off + len(l)
			if end < len(data) {
				end++ // the newline after the closing fence
			}
			return data[len(first)+1 : off], data[end:], line + 1, true, nil
		}
		off += len(l) + 1
		rest = next
		line++
	}
	return nil, nil, 0, false, errors.New("frontmatter has no closing ---")
}

// Readable reports whether Parse can read data at all, whatever its
// frontmatter says: not oversized, no NUL byte, valid UTF-8.
func Readable(data []byte) bool {
	return len(data) <= MaxPageSize && bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}

// RawFrontmatter returns the YAML between a page's fences as written (nil
// without frontmatter, or when it is not closed): enough to tell whether
// two versions of a page can differ in Meta without parsing either.
func RawFrontmatter(data []byte) []byte {
	front, _, _, ok, err := splitFrontmatter(data)
	if !ok || err != nil {
		return nil
	}
	return front
}

// Parse reads a page. path is used in errors only. Binary content, invalid
// UTF-8, oversized files and malformed frontmatter are errors; a file with no
// frontmatter is a page with an empty Meta.
func Parse(path string, data []byte) (*Page, error) {
	if len(data) > MaxPageSize {
		return nil, &ParseError{Path: path, Err: fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxPageSize)}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &ParseError{Path: path, Line: 1 + bytes.Count(data[:i], []byte("\n")), Err: ErrBinary}
	}
	if !utf8.Valid(data) {
		return nil, &ParseError{Path: path, Line: invalidUTF8Line(data), Err: ErrInvalidUTF8}
	}
	front, body, _, ok, err := splitFrontmatter(data)
	if err != nil {
		return nil, &ParseError{Path: path, Line: 1, Err: err}
	}
	p := &Page{Body: body}
	if !ok {
		return p, nil
	}
	p.hadFront = true
	p.head = data[:len(data)-len(body)]
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return nil, &ParseError{Path: path, Line: yamlErrLine(err), Err: fmt.Errorf("frontmatter: %v", cleanYAMLErr(err))}
	}
	if len(doc.Content) == 0 {
		return p, nil // "---\n---": empty frontmatter
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, &ParseError{Path: path, Line: 1 + m.Line, Err: errors.New("frontmatter: not a mapping of keys to values")}
	}
	if err := m.Decode(&p.Meta); err != nil {
		return nil, &ParseError{Path: path, Line: yamlErrLine(err), Err: fmt.Errorf("frontmatter: %v", cleanYAMLErr(err))}
	}
	p.node = m
	p.parsed = cloneMeta(p.Meta)
	return p, nil
}

// Bytes serializes the page. An unchanged page gives back exactly the bytes
// it was parsed from; a changed one keeps the keys pt does not know, in their
// place, and the body byte for byte.
func (p *Page) Bytes() ([]byte, error) {
	var buf bytes.Buffer
	if p.hadFront && reflect.DeepEqual(p.Meta, p.parsed) {
		buf.Grow(len(p.head) + len(p.Body))
		buf.Write(p.head)
		buf.Write(p.Body)
		return buf.Bytes(), nil
	}
	if !p.hadFront && reflect.DeepEqual(p.Meta, Meta{}) {
		return append([]byte(nil), p.Body...), nil
	}
	out, whole, err := p.encodeFront()
	if err != nil {
		return nil, fmt.Errorf("encode frontmatter: %w", err)
	}
	if whole {
		return out, nil
	}
	// Sized once: a page is kept until its batch commits, and a buffer
	// grown by doubling would keep up to twice its size.
	buf.Grow(len(out) + len(p.Body) + 8)
	buf.WriteString("---\n")
	buf.Write(out)
	buf.WriteString("---\n")
	buf.Write(p.Body)
	return buf.Bytes(), nil
}

// encodeFront encodes a changed page's frontmatter, or, when whole is
// true, the whole page with its frontmatter spliced (spliceFront). A page
// with no frontmatter of its own, no date to write bare and no text that
// needs a node (needsNode) is encoded straight from Meta: through a yaml.Node, which
// a page whose keys are kept needs, the same bytes cost two encodings and
// a parse more. (What is read back into the node can come out otherwise:
// a lone line break is written "" the second time, "<<" as "!!merge <<".)
func (p *Page) encodeFront() (out []byte, whole bool, err error) {
	if p.node == nil && !bareDate(p.Meta.Expires) && !needsNode(reflect.ValueOf(p.Meta)) {
		out, err = yaml.Marshal(p.Meta)
		return out, false, err
	}
	var fresh yaml.Node
	if err := fresh.Encode(p.Meta); err != nil {
		return nil, false, err
	}
	bareExpires(&fresh)
	if out, ok := p.spliceFront(&fresh); ok {
		return out, true, nil
	}
	merged := &fresh
	if p.node != nil {
		merged = mergeMapping(p.node, &fresh, reflect.TypeOf(Meta{}))
	}
	out, err = yaml.Marshal(merged)
	return out, false, err
}

// needsNode reports whether a string in v holds a character YAML reads
// as a line break, or is "<<", which yaml.v3 writes bare and reads back as
// a merge key.
func needsNode(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return strings.ContainsAny(v.String(), "\n\r\u0085\u2028\u2029") || v.String() == "<<"
	case reflect.Struct:
		for i := range v.NumField() {
			if needsNode(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if needsNode(v.Index(i)) {
				return true
			}
		}
	}
	return false
}

// MustBytes is Bytes for pages built by pt itself, whose Meta always encodes.
func (p *Page) MustBytes() []byte {
	b, err := p.Bytes()
	if err != nil {
		panic(err)
	}
	return b
}

// Extra returns the frontmatter keys pt does not know, in file order.
func (p *Page) Extra() []string {
	if p.node == nil {
		return nil
	}
	known := knownKeys(reflect.TypeOf(Meta{}))
	var out []string
	for i := 0; i+1 < len(p.node.Content); i += 2 {
		if k := p.node.Content[i].Value; !known[k] {
			out = append(out, k)
		}
	}
	return out
}

func cloneMeta(m Meta) Meta {
	c := m
	c.Topics = slices.Clone(m.Topics)
	c.Supersedes = slices.Clone(m.Supersedes)
	c.Provenance.DerivedFrom = slices.Clone(m.Provenance.DerivedFrom)
	c.Provenance.Citations = slices.Clone(m.Provenance.Citations)
	return c
}

func invalidUTF8Line(data []byte) int {
	line := 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += n
	}
	return line
}
