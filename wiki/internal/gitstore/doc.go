// Package gitstore is pt's only door to git: the only package in pt that
// imports go-git, and the one owner of a repository handle.
//
// Why a package of its own: go-git's *git.Repository is not safe for
// concurrent use, and its Worktree.Commit moves a branch with a plain write
// (no lock file, no fsync, no compare-and-swap), so a concurrent writer's
// commit can vanish. gitstore keeps go-git for what it does well (reading
// objects, packs, revisions, the index codec) and does the writing itself
// the way git does it:
//
//   - a batch's objects are written as one pack (a single object loose),
//     fsynced with their directories before any ref moves; a batch may
//     write its files into the pack as it stages them (Pack), so that it
//     holds their ids, not their content;
//   - only the trees on changed paths are rebuilt, reusing every unchanged
//     subtree hash, so a small batch in a 100k-file repository costs
//     milliseconds;
//   - the branch moves with git's own lock-file protocol (<ref>.lock created
//     exclusively, old value checked, new value fsynced and renamed), so a
//     `git` command writing at the same time is excluded too, and a lost race
//     is reported as ErrStale instead of being overwritten;
//   - pt writers in different processes serialize on an flock of
//     <gitdir>/pt/write.lock, which the kernel drops when a holder dies;
//   - the work tree and .git/index follow the branch for the changed paths
//     only, guarded by a journal (<gitdir>/pt/worktree.pending) that Open and
//     the next Commit finish after a crash, and never overwriting a user's
//     uncommitted edit; a file that cannot be written (a full disk) is an
//     error, never taken for such an edit.
//
// Callers (package wiki) speak in slash-separated paths relative to the
// repository root and in bytes; nothing of go-git leaks through the API.
// gitstore must not import any other pt package.
package gitstore
