package access

import (
	"context"
	"fmt"
	"os"
)

// Stat implements Stater: §3.10's file is on this machine, and os.Stat
// proves it is there without opening it (a pipe or a device is never
// opened: it may never end).
func (fileHandler) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	path, ok := p.Data.(string)
	if !ok || len(p.Steps) != 1 || p.Steps[0].Verb != "open" || p.Steps[0].Arg != path {
		return nil, fmt.Errorf("%s: the plan is not one open step", p.URL)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if st.IsDir() {
		return &Info{Kind: KindDirectory, Size: -1, Time: st.ModTime(), Detail: "directory"}, nil
	}
	if !st.Mode().IsRegular() {
		return &Info{Kind: KindOther, Size: -1, Time: st.ModTime(), Detail: "not a regular file: " + st.Mode().Type().String()}, nil
	}
	return &Info{Kind: KindFile, Size: st.Size(), Time: st.ModTime(), Detail: fmt.Sprintf("%d bytes", st.Size())}, nil
}
