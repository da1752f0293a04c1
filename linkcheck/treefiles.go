package linkcheck

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// The files of a Tree: given, walked, or matched by a glob.

// Add adds a file, every regular file under a folder (Include and
// Exclude applied), or the files a glob matches ("**" matches any number
// of folders).
func (t *Tree) Add(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		if strings.ContainsAny(name, "*?[") {
			return t.glob(name)
		}
		return err
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		t.addFile(name, abs, t.topOf(abs, filepath.Dir(abs)))
		return nil
	}
	top := t.topOf(abs, abs)
	g := Gatherer{Include: t.Include, Exclude: t.Exclude}
	return filepath.WalkDir(name, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || d.Name() == IgnoreFile {
			return nil // a symbolic link is not followed out of the tree
		}
		rel, _ := filepath.Rel(name, p)
		if g.selected(filepath.ToSlash(rel)) {
			t.addFile(p, filepath.Join(abs, rel), top)
		}
		return nil
	})
}

// topOf returns the tree of a file: Root when it holds it, else dflt.
func (t *Tree) topOf(abs, dflt string) string {
	if t.Root != "" {
		if r, err := filepath.Abs(t.Root); err == nil && inDir(abs, r) {
			return r
		}
	}
	return dflt
}

func (t *Tree) addFile(name, abs, top string) {
	if t.tops == nil {
		t.tops = map[string]bool{}
	}
	if !t.tops[top] {
		t.tops[top] = true
		t.loadIgnore(filepath.Join(top, IgnoreFile))
	}
	if t.added[abs] {
		return // a file given twice, or found twice, is read once
	}
	if t.added == nil {
		t.added = map[string]bool{}
	}
	t.added[abs] = true
	t.files = append(t.files, treeFile{name: name, abs: abs, top: top})
}

func (t *Tree) loadIgnore(name string) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		re, err := regexp.Compile(line)
		if err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("%s:%d: %v", name, n, err))
			continue
		}
		t.ignore = append(t.ignore, re)
	}
}

// glob adds the files matching pattern, "**" standing for any number of
// folders.
func (t *Tree) glob(pattern string) error {
	pat := filepath.ToSlash(pattern)
	segs := strings.Split(pat, "/")
	i := 0
	for i < len(segs) && !strings.ContainsAny(segs[i], "*?[") {
		i++
	}
	dir := strings.Join(segs[:i], "/")
	if dir == "" {
		dir = "."
		if strings.HasPrefix(pat, "/") {
			dir = "/"
		}
	}
	rest := segs[i:]
	n := len(t.files)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if !globMatch(rest, strings.Split(filepath.ToSlash(rel), "/")) {
			return nil
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		dabs, _ := filepath.Abs(dir)
		t.addFile(p, abs, t.topOf(abs, dabs))
		return nil
	})
	if err == nil && len(t.files) == n {
		return fmt.Errorf("%s: no file matches", pattern)
	}
	return err
}

func globMatch(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(name); k++ {
				if globMatch(pat[1:], name[k:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// inDir reports whether p is dir or below it (both clean and absolute).
func inDir(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
