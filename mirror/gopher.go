package mirror

import (
	"context"
	"errors"

	"github.com/rfc1738/rfc1738"
)

func (r *run) mirrorGopher(ctx context.Context, u rfc1738.URL) error {
	return errors.New("mirror: gopher not yet")
}
