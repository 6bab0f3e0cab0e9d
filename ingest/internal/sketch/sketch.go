package sketch

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Thresholds for the file-back quality gate (DESIGN.md §7).
//
// They were chosen on testdata/similar/pairs.txtar, a hand-labelled set of
// 22 near-duplicate pairs (reordered sentences, small edits, a sentence
// added or removed, synonyms, Markdown changes), 22 pairs of different
// answers about the same system, 10 answers that restate part of a page and
// 10 that add to it. TestSimilarityLabelled prints precision and recall.
const (
	// DefaultNearDuplicate is the Similarity at or above which two answers
	// count as the same answer. On the labelled set paraphrases scored
	// 0.59 and up and different answers 0.17 and below; 0.35 sits in that
	// gap, below its middle because skipping a near-duplicate costs less
	// than filing a second copy, and more than four standard errors of the
	// estimate from either edge (precision 1.00, recall 1.00 there).
	DefaultNearDuplicate = 0.35
	// DefaultEcho is the Containment of an answer in a page at or above
	// which the answer merely restates the page. On the labelled set
	// restatements (echo and dup pairs) scored 0.63 and up and answers that
	// add something (noecho and diff pairs) 0.33 and below; 0.45 sits in
	// that gap, a little below its middle for the same reason
	// (precision 1.00, recall 1.00 there).
	DefaultEcho = 0.45
)

// sketchSize is the number of MinHash permutations: the standard error of
// the Jaccard estimate is about sqrt(J(1-J)/128), at most 0.044.
const sketchSize = 128

// Sketch is a MinHash fingerprint of a text: small (about 0.5 KB),
// deterministic (fixed seeds) and serializable, so sketches of filed answers
// can be cached and compared without re-reading the pages.
type Sketch struct {
	// N is the number of distinct shingles: with it, Containment can be
	// estimated from two sketches alone.
	N    int
	Mins [sketchSize]uint32
}

// Fingerprint normalizes text (lowercase; Markdown punctuation, link
// targets and code fences dropped; whitespace folded) and sketches the set
// of its word 2-shingles. Shingles survive reordered sentences (only the
// pairs across a sentence boundary change) and lose only two per edited
// word. k=2 was chosen over k=3, unigrams and mixtures on the labelled set:
// it left the widest gap between paraphrases and different answers for
// both Similarity and Containment (TestSimilarityLabelled documents the
// comparison). A text of one word is one shingle.
func Fingerprint(text string) Sketch {
	return sketchOf(shingleSet(normalizeWords(text)))
}

// Similarity estimates the Jaccard similarity of the two texts' shingle
// sets: the share of permutations whose minimum agrees. Empty texts are
// similar to nothing.
func Similarity(a, b Sketch) float64 {
	if a.N == 0 || b.N == 0 {
		return 0
	}
	eq := 0
	for i := range a.Mins {
		if a.Mins[i] == b.Mins[i] {
			eq++
		}
	}
	return float64(eq) / sketchSize
}

// Containment estimates how much of a is contained in b, |A∩B| / |A|: an
// answer that merely restates part of a longer page has a low Jaccard with
// it but a high containment. It is derived from the Jaccard estimate J and
// the set sizes: |A∩B| = J(|A|+|B|)/(1+J).
func Containment(a, b Sketch) float64 {
	if a.N == 0 || b.N == 0 {
		return 0
	}
	j := Similarity(a, b)
	c := j * float64(a.N+b.N) / ((1 + j) * float64(a.N))
	return math.Min(1, c)
}

const sketchPrefix = "minhash1:"

// MarshalText encodes the sketch as "minhash1:<N>:<base64url of the
// minimums>", so that it can sit in a cache file or a JSON field. The
// version prefix changes whenever Fingerprint's normalization does, so that
// stale cached sketches are refused rather than compared.
func (s Sketch) MarshalText() ([]byte, error) {
	raw := make([]byte, 4*sketchSize)
	for i, m := range s.Mins {
		binary.BigEndian.PutUint32(raw[4*i:], m)
	}
	return []byte(sketchPrefix + strconv.Itoa(s.N) + ":" + base64.RawURLEncoding.EncodeToString(raw)), nil
}

// UnmarshalText decodes what MarshalText wrote.
func (s *Sketch) UnmarshalText(text []byte) error {
	rest, ok := strings.CutPrefix(string(text), sketchPrefix)
	if !ok {
		return errors.New("sketch: unknown format")
	}
	ns, enc, ok := strings.Cut(rest, ":")
	if !ok {
		return errors.New("sketch: missing size")
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 0 {
		return fmt.Errorf("sketch: bad size %q", ns)
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return fmt.Errorf("sketch: %w", err)
	}
	if len(raw) != 4*sketchSize {
		return fmt.Errorf("sketch: %d bytes, want %d", len(raw), 4*sketchSize)
	}
	s.N = n
	for i := range s.Mins {
		s.Mins[i] = binary.BigEndian.Uint32(raw[4*i:])
	}
	return nil
}

// String is the MarshalText form.
func (s Sketch) String() string {
	b, _ := s.MarshalText()
	return string(b)
}

var (
	simLinkTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\([^)]*\)`) })
	simFence      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?m)^ {0,3}(```|~~~).*$") })
)

// normalizeWords lowercases text and splits it into words, dropping
// Markdown punctuation, link targets and fence lines, so that the same
// answer written as a list or as prose, with or without emphasis, has the
// same words.
func normalizeWords(text string) []string {
	text = simLinkTarget().ReplaceAllString(text, "]")
	text = simFence().ReplaceAllString(text, " ")
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// shingleK is the shingle length. On the labelled set (gap between the
// lowest positive and the highest negative, Similarity / Containment):
// k=1 0.46/0.22, k=2 0.37/0.38, k=3 0.33/0.20, k=2 plus content words
// 0.39/0.29, k=3 plus content words 0.34/0.23. k=2 has the best worst case.
const shingleK = 2

// shingleSet hashes the word shingles of words (one shingle of all words
// when there are fewer than shingleK).
func shingleSet(words []string) map[uint64]struct{} {
	set := map[uint64]struct{}{}
	if len(words) > 0 && len(words) < shingleK {
		set[hashShingle(words)] = struct{}{}
	}
	for i := 0; i+shingleK <= len(words); i++ {
		set[hashShingle(words[i:i+shingleK])] = struct{}{}
	}
	return set
}

func hashShingle(words []string) uint64 {
	h := fnv.New64a()
	for _, w := range words {
		h.Write([]byte{0})
		h.Write([]byte(w))
	}
	return h.Sum64()
}

// seeds are the fixed permutation keys: the first sketchSize outputs of
// splitmix64 from a constant, so sketches agree across runs and machines.
var seeds = func() (s [sketchSize]uint64) {
	x := uint64(0x7074_7769_6b69) // "ptwiki"
	for i := range s {
		x += 0x9e3779b97f4a7c15
		s[i] = mix64(x)
	}
	return s
}()

// mix64 is the splitmix64 finalizer: a cheap bijection that scrambles all
// bits, so mix64(x^seed) behaves as an independent hash per seed.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func sketchOf(set map[uint64]struct{}) Sketch {
	s := Sketch{N: len(set)}
	for i := range s.Mins {
		s.Mins[i] = math.MaxUint32
	}
	for x := range set {
		for i, seed := range seeds {
			if h := uint32(mix64(x^seed) >> 32); h < s.Mins[i] {
				s.Mins[i] = h
			}
		}
	}
	return s
}
