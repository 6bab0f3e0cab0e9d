package wiki

import (
	"context"
	"errors"
	"fmt"
)

// ErrSymlink is returned for a batch that would write or delete a path the
// repository holds as a symbolic link. pt never follows one (its content
// is a target path, which could lead out of the space) and never replaces
// one with a file, as pt import skips them.
var ErrSymlink = errors.New("a symbolic link: pt never follows or replaces one")

// IsSymlink reports whether p is a symbolic link at the batch's head.
func (tx *Tx) IsSymlink(ctx context.Context, p string) (bool, error) {
	if tx.headID.IsZero() {
		return false, nil
	}
	return tx.space.store.IsSymlink(ctx, tx.headID, tx.space.repoPath(p))
}

func (tx *Tx) notSymlink(ctx context.Context, p string) error {
	link, err := tx.IsSymlink(ctx, p)
	if err != nil {
		return err
	}
	if link {
		return fmt.Errorf("%s is %w", p, ErrSymlink)
	}
	return nil
}
