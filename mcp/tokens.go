package mcp

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// TokensFile is the name of the token file under a space's state directory
// (inside .git, so never committed).
const TokensFile = "mcp-tokens.json"

// Errors callers branch on.
var (
	ErrTokenExists   = errors.New("a token of that name exists")
	ErrNoToken       = errors.New("no token of that name")
	ErrInvalidToken  = errors.New("invalid or revoked token")
	ErrBadTokenName  = errors.New("bad token name")
	ErrBadTokenScope = errors.New("bad token scope")
)

// Token is a bearer token as stored: its name, scope and the SHA-256 of the
// secret, never the secret itself. A token created for a person (For) is
// that person's: what its client writes is approved by them. Any other
// token is an agent's: its writes record the agent and no approver.
type Token struct {
	Name      string    `json:"name"`
	For       string    `json:"for,omitempty"`
	Scope     string    `json:"scope"`
	Clearance string    `json:"clearance,omitempty"` // "" is UNCLASSIFIED
	Hash      string    `json:"sha256"`
	Created   time.Time `json:"created"`
}

// TokenSpec is what a new token is: its name, whose it is ("" for an
// agent's), its scope and its clearance ("" for UNCLASSIFIED).
type TokenSpec struct {
	Name, For, Scope, Clearance string
}

type tokensFile struct {
	Tokens []Token `json:"tokens"`
}

var tokenNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// Tokens is the token store of a space: a JSON file of mode 0600 under the
// space's state directory. It re-reads the file when it changes, so a token
// created or revoked by another process takes effect at once on a running
// server.
type Tokens struct {
	path string

	mu     sync.Mutex
	stamp  fileStamp
	tokens []Token
}

// fileStamp tells whether the file changed since it was read: a rename
// gives a new inode, an edit in place a new size or time.
type fileStamp struct {
	fi os.FileInfo
}

func (a fileStamp) same(b fileStamp) bool {
	if a.fi == nil || b.fi == nil {
		return a.fi == nil && b.fi == nil
	}
	return os.SameFile(a.fi, b.fi) && a.fi.ModTime().Equal(b.fi.ModTime()) && a.fi.Size() == b.fi.Size()
}

// OpenTokens returns the token store of s.
func OpenTokens(s *wiki.Space) *Tokens {
	return &Tokens{path: filepath.Join(s.StateDir(), TokensFile)}
}

// Path is where the store keeps its hashes.
func (ts *Tokens) Path() string { return ts.path }

// load returns the current tokens, re-reading the file when its size or
// modification time changed. A missing file is an empty store.
func (ts *Tokens) load() ([]Token, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	fi, err := os.Stat(ts.path)
	var st fileStamp
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		st = fileStamp{fi: fi}
	}
	if ts.tokens != nil && st.same(ts.stamp) {
		return ts.tokens, nil
	}
	var f tokensFile
	if st.fi != nil {
		data, err := os.ReadFile(ts.path)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("tokens %s: %w", ts.path, err)
		}
	}
	if f.Tokens == nil {
		f.Tokens = []Token{}
	}
	ts.stamp, ts.tokens = st, f.Tokens
	return f.Tokens, nil
}

// List returns the stored tokens (names, scopes, creation times and hashes).
func (ts *Tokens) List() ([]Token, error) {
	t, err := ts.load()
	return slices.Clone(t), err
}

// Create makes an agent's token and returns its secret, which is shown
// once: only its hash is stored.
func (ts *Tokens) Create(name, scope string, now time.Time) (string, Token, error) {
	return ts.Issue(TokenSpec{Name: name, Scope: scope}, now)
}

// Issue makes a token as spec says and returns its secret, shown once.
func (ts *Tokens) Issue(spec TokenSpec, now time.Time) (string, Token, error) {
	name := spec.Name
	if name == "" {
		name = spec.For
	}
	if !tokenNameRe().MatchString(name) {
		return "", Token{}, fmt.Errorf("token %q: %w (letters, digits, '.', '_' and '-', at most 64)", name, ErrBadTokenName)
	}
	if spec.For != "" && !tokenNameRe().MatchString(spec.For) {
		return "", Token{}, fmt.Errorf("token for %q: %w (a person's name: letters, digits, '.', '_' and '-')", spec.For, ErrBadTokenName)
	}
	if spec.Scope != ScopeRead && spec.Scope != ScopeWrite {
		return "", Token{}, fmt.Errorf("token %q: %w %q (read or write)", name, ErrBadTokenScope, spec.Scope)
	}
	clearance, err := content.ParseClearance(spec.Clearance)
	if err != nil {
		return "", Token{}, fmt.Errorf("token %q: %w", name, err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", Token{}, err
	}
	secret := "pt_" + base64.RawURLEncoding.EncodeToString(raw[:])
	tok := Token{Name: name, For: spec.For, Scope: spec.Scope, Clearance: clearance, Hash: hashSecret(secret), Created: now.UTC().Truncate(time.Second)}
	if tok.Clearance == content.Unclassified {
		tok.Clearance = ""
	}
	err = ts.update(func(toks []Token) ([]Token, error) {
		if slices.ContainsFunc(toks, func(t Token) bool { return t.Name == name }) {
			return nil, fmt.Errorf("token %q: %w (revoke it first)", name, ErrTokenExists)
		}
		return append(toks, tok), nil
	})
	if err != nil {
		return "", Token{}, err
	}
	return secret, tok, nil
}

// Revoke deletes a token; a server using the store refuses it from the
// next request on.
func (ts *Tokens) Revoke(name string) error {
	return ts.update(func(toks []Token) ([]Token, error) {
		i := slices.IndexFunc(toks, func(t Token) bool { return t.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("token %q: %w", name, ErrNoToken)
		}
		return slices.Delete(toks, i, i+1), nil
	})
}

// Verify returns the token whose secret this is. It compares hashes in
// constant time.
func (ts *Tokens) Verify(secret string) (Token, error) {
	toks, err := ts.load()
	if err != nil {
		return Token{}, err
	}
	h := []byte(hashSecret(secret))
	for _, t := range toks {
		if subtle.ConstantTimeCompare(h, []byte(t.Hash)) == 1 {
			return t, nil
		}
	}
	return Token{}, ErrInvalidToken
}

// update rewrites the file under an exclusive lock file, atomically (a
// temporary file renamed over it), with mode 0600.
func (ts *Tokens) update(change func([]Token) ([]Token, error)) error {
	if err := os.MkdirAll(filepath.Dir(ts.path), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(ts.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	ts.mu.Lock()
	ts.tokens = nil // force a re-read under the lock
	ts.mu.Unlock()
	cur, err := ts.load()
	if err != nil {
		return err
	}
	next, err := change(slices.Clone(cur))
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(tokensFile{Tokens: next}, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(ts.path, append(data, '\n'), 0o600)
}

func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// lockFile takes an exclusive lock by creating path; a lock older than ten
// seconds is left over by a crashed process and is taken over.
func lockFile(path string) (func(), error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > 10*time.Second {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: locked by another pt process", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// writeAtomic replaces path with data: a temporary file in the same
// directory, synced, then renamed, so a reader sees the old or the new file
// and never half of one.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if mode&0o077 == 0 {
		if err := ownerOnly(tmp); err != nil {
			f.Close()
			return err
		}
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}
