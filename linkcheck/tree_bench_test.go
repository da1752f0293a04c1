package linkcheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// pythonDocs is Debian's python3-doc HTML tree (Sphinx, about 530 pages,
// 67 MB): the tree benchmarks/linkcheck-docs.sh measures beside peers.
const pythonDocs = "/usr/share/doc/python3-doc/html"

// BenchmarkTreeDocs checks the python3-doc tree as `linkcheck --offline`
// does: every page read, every relative link and fragment decided.
func BenchmarkTreeDocs(b *testing.B) {
	dir, err := filepath.EvalSymlinks(pythonDocs)
	if err != nil {
		b.Skip("python3-doc is not installed (apt-get install python3-doc):", err)
	}
	var size int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && kindOf(p) == kindHTML {
			if st, err := d.Info(); err == nil {
				size += st.Size()
			}
		}
		return nil
	})
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		t := &Tree{Offline: true}
		if err := t.Add(dir); err != nil {
			b.Fatal(err)
		}
		t.Read(context.Background())
		if len(t.Results()) == 0 {
			b.Fatal("no links found")
		}
	}
}
