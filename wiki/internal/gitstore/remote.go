package gitstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Errors of the network operations that callers branch on.
var (
	// ErrRemoteMoved: the remote branch is no longer where the push expected
	// it (someone pushed in between). Fetch again and retry.
	ErrRemoteMoved = errors.New("remote branch moved")
	// ErrPushRejected: the remote refused the push for a reason a retry does
	// not fix (a pre-receive hook, a protected branch, permissions).
	ErrPushRejected = errors.New("push rejected")
	// ErrNoRemote: the repository has no remote of that name.
	ErrNoRemote = errors.New("no such remote")
)

// Remote is a remote repository as pt talks to it: a configured remote's
// name and URL, or a bare URL (Name "").
type Remote struct {
	Name string
	URL  string
	// Credentials for an http(s) remote; zero sends none (a user and
	// password in the URL itself are used as they are).
	Credentials Credentials
}

// Credentials are a token sent as basic auth to an http(s) remote: User
// "" means the URL's user, else "x-access-token", which GitHub, GitLab and
// Gitea all accept with a token.
type Credentials struct {
	User  string
	Token string
}

// String is the remote for messages, with any credential in its URL removed.
func (r Remote) String() string {
	if r.Name == "" {
		return ScrubURL(r.URL)
	}
	return r.Name + " (" + ScrubURL(r.URL) + ")"
}

// trackingRef is where the remote branch's last known value is kept, as git
// keeps it (refs/remotes/<name>/<branch>); a bare URL has no tracking ref.
func (s *Store) trackingRef(r Remote) string {
	if r.Name == "" {
		return ""
	}
	return "refs/remotes/" + r.Name + "/" + s.branch
}

// LookupRemote resolves a remote name from the repository's configuration
// (remote.<name>.url, after url.<base>.insteadOf rules). A name that looks
// like a URL or a path is used as the URL itself.
func (s *Store) LookupRemote(name string) (Remote, error) {
	if looksLikeURL(name) {
		return Remote{URL: name}, nil
	}
	s.mu.Lock()
	cfg, err := s.repo.Config()
	s.mu.Unlock()
	if err != nil {
		return Remote{}, fmt.Errorf("gitstore: read config: %w", err)
	}
	rc, ok := cfg.Remotes[name]
	if !ok || len(rc.URLs) == 0 {
		return Remote{}, fmt.Errorf("gitstore: remote %q: %w (add one with: git remote add %s URL)", name, ErrNoRemote, name)
	}
	return Remote{Name: name, URL: s.absURL(rc.URLs[0])}, nil
}

// absURL makes a relative path URL absolute, relative to the work tree (the
// git dir when bare), as git reads it; go-git would take it relative to the
// process's working directory.
func (s *Store) absURL(u string) string {
	if strings.Contains(u, "://") || filepath.IsAbs(u) || (strings.Contains(u, ":") && !strings.HasPrefix(u, ".")) {
		return u
	}
	root := s.workDir
	if root == "" {
		root = s.gitDir
	}
	return filepath.Join(root, u)
}

func looksLikeURL(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") ||
		(strings.Contains(s, "@") && strings.Contains(s, ":"))
}

// Tracking returns the last known value of the remote branch (zero when
// never fetched or for a bare URL).
func (s *Store) Tracking(r Remote) (Hash, error) {
	name := s.trackingRef(r)
	if name == "" {
		return Hash{}, nil
	}
	return s.readRef(name)
}

// syncedRef is where pt records the remote branch as this clone last
// synced with it: the tip its branch integrated, or the commit it pushed.
// Unlike the tracking ref, nothing but pt's sync moves it (a plain git fetch
// does not), and a bare URL has one too. It is keyed by the remote's URL
// (credentials removed, a local path made absolute), so that a remote named
// in the configuration and the same repository given as a URL share it.
func (s *Store) syncedRef(r Remote) string {
	u := ScrubURL(r.URL)
	if !strings.Contains(u, "://") && (filepath.IsAbs(u) || !strings.Contains(u, ":")) {
		if abs, err := filepath.Abs(u); err == nil { // a local path, however it is spelled
			u = filepath.ToSlash(abs)
		}
	}
	sum := sha256.Sum256([]byte(u))
	return "refs/pt/synced/" + hex.EncodeToString(sum[:8]) + "/" + s.branch
}

// Synced returns the remote branch as this clone last synced with it (zero
// when it never did).
func (s *Store) Synced(r Remote) (Hash, error) {
	return s.readRef(s.syncedRef(r))
}

// SetSynced records h as the remote branch this clone last synced with.
func (s *Store) SetSynced(ctx context.Context, r Remote, h Hash) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.setRef(s.syncedRef(r), Hash{}, h, true)
}

// netStorer is the storage the network operations run on: go-git's own
// object storage of the repository (fetched packs land in objects/pack), but
// an in-memory reference store, so that go-git never writes a ref. pt
// writes refs itself, with git's lock-file protocol.
type netStorer struct {
	*filesystem.Storage
	refs memory.ReferenceStorage
}

func (n *netStorer) SetReference(r *plumbing.Reference) error { return n.refs.SetReference(r) }
func (n *netStorer) CheckAndSetReference(r, old *plumbing.Reference) error {
	return n.refs.CheckAndSetReference(r, old)
}
func (n *netStorer) Reference(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	return n.refs.Reference(name)
}
func (n *netStorer) IterReferences() (storer.ReferenceIter, error) { return n.refs.IterReferences() }
func (n *netStorer) RemoveReference(name plumbing.ReferenceName) error {
	return n.refs.RemoveReference(name)
}
func (n *netStorer) CountLooseRefs() (int, error) { return n.refs.CountLooseRefs() }
func (n *netStorer) PackRefs() error              { return nil }

// netStorage opens a storage handle of its own for one network operation:
// go-git's storage caches are not safe for concurrent use, and a fetch must
// not hold s.mu (which every read takes) for the length of a download.
// known seeds the reference store with commits the remote may share with
// us, which go-git offers as "haves" so that only new objects come down.
func (s *Store) netStorage(known map[string]Hash) *netStorer {
	fs := dotgit.NewRepositoryFilesystem(osfs.New(s.gitDir), osfs.New(s.commonDir))
	n := &netStorer{Storage: filesystem.NewStorage(fs, cache.NewObjectLRUDefault()), refs: memory.ReferenceStorage{}}
	for name, h := range known {
		if !h.IsZero() {
			n.refs.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.Hash(h)))
		}
	}
	return n
}

// Fetch downloads the remote's copy of the store's branch and returns its
// tip (zero when the remote has no such branch yet: an empty repository, or
// one that has never received this branch). The objects are written to the
// repository, the tracking ref (refs/remotes/<name>/<branch>) is moved with
// the lock-file protocol, and nothing else changes: the local branch and
// the work tree are the caller's to move (MoveBranch).
func (s *Store) Fetch(ctx context.Context, r Remote) (Hash, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return Hash{}, err
	}
	old, err := s.Tracking(r)
	if err != nil {
		return Hash{}, err
	}
	const dst = "refs/pt/fetched"
	st := s.netStorage(map[string]Hash{s.refName(): head, dst: old})
	defer st.Close()
	rem := gogit.NewRemote(st, &config.RemoteConfig{Name: remoteName(r), URLs: []string{r.URL}})
	err = rem.FetchContext(ctx, &gogit.FetchOptions{
		RemoteName: remoteName(r),
		RefSpecs:   []config.RefSpec{config.RefSpec("+" + s.refName() + ":" + dst)},
		Auth:       authFor(r.URL, r.Credentials),
		Tags:       gogit.NoTags,
	})
	switch {
	case errors.Is(err, gogit.NoErrAlreadyUpToDate):
	case isNoMatchingRef(err):
		return Hash{}, nil
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return Hash{}, nil
	case err != nil:
		return Hash{}, fmt.Errorf("gitstore: fetch %s from %s: %s", s.branch, r, r.scrub(err.Error()))
	}
	ref, err := st.refs.Reference(dst)
	if err != nil {
		return Hash{}, nil
	}
	tip := Hash(ref.Hash())
	s.mu.Lock()
	s.st.Reindex() // the main handle caches the pack list; make it see the new pack
	s.mu.Unlock()
	if name := s.trackingRef(r); name != "" && tip != old {
		if err := s.setRef(name, Hash{}, tip, true); err != nil {
			return tip, err
		}
	}
	return tip, nil
}

func remoteName(r Remote) string {
	if r.Name == "" {
		return "pt-url"
	}
	return r.Name
}

func isNoMatchingRef(err error) bool {
	return err != nil && (errors.Is(err, plumbing.ErrReferenceNotFound) || strings.Contains(err.Error(), "couldn't find remote ref"))
}

// Push makes the remote's branch point at commit, provided it is still at
// expect (zero: the branch must not exist there yet), and sends the objects
// the remote lacks. It never forces: a remote that moved is ErrRemoteMoved,
// a refusal by the remote is ErrPushRejected. On success the tracking ref
// records commit.
func (s *Store) Push(ctx context.Context, r Remote, commit, expect Hash) (retErr error) {
	st := s.netStorage(nil)
	defer st.Close()
	rem := gogit.NewRemote(st, &config.RemoteConfig{Name: remoteName(r), URLs: []string{r.URL}})
	opts := &gogit.PushOptions{
		RemoteName: remoteName(r),
		RefSpecs:   []config.RefSpec{config.RefSpec(commit.String() + ":" + s.refName())},
		Auth:       authFor(r.URL, r.Credentials),
	}
	if !expect.IsZero() {
		opts.RequireRemoteRefs = []config.RefSpec{config.RefSpec(expect.String() + ":" + s.refName())}
	}
	// The remote's own words (a hook's "protected branch: ..." on the
	// sideband, which git prints as "remote: ...") go with a refusal.
	var said bytes.Buffer
	opts.Progress = &said
	err := rem.PushContext(ctx, opts)
	if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) {
		msg := r.scrub(err.Error())
		// Classified on git's own words only: a hook's text could say
		// anything ("commits are required to be signed").
		if said := remoteSaid(said.String()); said != "" {
			defer func() { retErr = appendRemote(retErr, r.scrub(said)) }()
		}
		switch {
		case strings.Contains(msg, "non-fast-forward"), strings.Contains(msg, "required to be"),
			strings.Contains(msg, "failed to lock"), strings.Contains(msg, "cannot lock ref"),
			strings.Contains(msg, "failed to update ref"), strings.Contains(msg, "fetch first"):
			return fmt.Errorf("gitstore: push %s to %s: %s: %w", s.branch, r, msg, ErrRemoteMoved)
		case strings.Contains(msg, "command error on"), strings.Contains(msg, "hook declined"),
			strings.Contains(msg, "denied"), strings.Contains(msg, "protected"),
			errors.Is(err, transport.ErrAuthorizationFailed), errors.Is(err, transport.ErrAuthenticationRequired):
			return fmt.Errorf("gitstore: push %s to %s: %s: %w", s.branch, r, msg, ErrPushRejected)
		}
		return fmt.Errorf("gitstore: push %s to %s: %s", s.branch, r, msg)
	}
	if expect.IsZero() {
		// The push landed whatever happens here: a HEAD left as it was
		// only makes a plain clone of the remote check out nothing.
		_ = pointRemoteHead(r.URL, s.branch)
	}
	if name := s.trackingRef(r); name != "" {
		return s.setRef(name, Hash{}, commit, true)
	}
	return nil
}

// authFor is the basic auth that carries c's token to an http(s) remote,
// or nil: for ssh go-git's default is used (the ssh agent and
// ~/.ssh/known_hosts), and a password in the URL is used as it is.
func authFor(rawURL string, c Credentials) transport.AuthMethod {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil || (ep.Protocol != "http" && ep.Protocol != "https") || ep.Password != "" || c.Token == "" {
		return nil
	}
	user := c.User
	if user == "" {
		user = ep.User
	}
	if user == "" {
		user = "x-access-token"
	}
	return &githttp.BasicAuth{Username: user, Password: c.Token}
}

var userinfoRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)([^/@\s]+)@`) })

// ScrubURL removes credentials from a URL (or any text holding URLs) before
// it is printed or returned in an error: the whole userinfo of an http(s)
// URL (a token is often passed as the user name), the password of others.
func ScrubURL(s string) string {
	return userinfoRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfoRe().FindStringSubmatch(m)
		scheme, info := sub[1], sub[2]
		if strings.HasPrefix(scheme, "http") {
			return scheme + "***@"
		}
		if u, _, ok := strings.Cut(info, ":"); ok {
			return scheme + u + ":***@"
		}
		return m
	})
}

// scrub is ScrubURL plus the removal of the remote's token, wherever a
// transport may have echoed it.
func (r Remote) scrub(s string) string {
	s = ScrubURL(s)
	if t := r.Credentials.Token; len(t) >= 4 {
		s = strings.ReplaceAll(s, t, "***")
	}
	return s
}

// remoteSaid is what a remote printed on the sideband during a push, on
// one line, with the progress counters git hosts also send left out.
func remoteSaid(s string) string {
	var keep []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "remote:"))
		if l == "" || strings.Contains(l, "objects:") || strings.HasPrefix(l, "Resolving deltas") || strings.HasPrefix(l, "Total ") {
			continue
		}
		keep = append(keep, l)
	}
	out := strings.Join(keep, "; ")
	if len(out) > 300 {
		out = out[:300] + "…"
	}
	return out
}

// remoteError is a push error with what the remote said appended, keeping
// the error it wraps (ErrRemoteMoved, ErrPushRejected) for errors.Is.
type remoteError struct {
	err  error
	said string
}

func (e *remoteError) Error() string { return e.err.Error() + " (remote: " + e.said + ")" }
func (e *remoteError) Unwrap() error { return e.err }

func appendRemote(err error, said string) error {
	if err == nil {
		return nil
	}
	return &remoteError{err: err, said: said}
}
