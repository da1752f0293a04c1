package ftp

import (
	"strconv"
	"strings"
	"time"
)

// A DirEntry is one entry of a directory listing (see DirReader).
type DirEntry struct {
	Name string
	Dir  bool
	Size int64     // -1 when unknown
	Time time.Time // zero when unknown
	// Precision is how coarse Time is: 0 for a time to the second (an
	// MLSD modify fact, RFC 3659 §2.3), time.Minute for an ls -l time of
	// day, 24h for an ls -l year (a file older than six months).
	Precision time.Duration
	// IsLink marks a symbolic link; Link is its target as listed
	// ("name -> target", or an MLSD "OS.unix=slink:target" type), ""
	// when the listing did not show it.
	IsLink bool
	Link   string
}

var months = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}

// ParseListLine reads one line of a LIST reply (RFC 959 §4.1.3 leaves
// its format to the server) in the two formats nearly every server
// uses: Unix "ls -l" and the DOS/IIS one. ok is false for a line in
// neither; skip is true for a line that names nothing ("total 12", ".",
// "..", a device). A symbolic link is an entry with IsLink set and its
// target in Link: its target's kind LIST does not tell.
func ParseListLine(line string, now time.Time) (e DirEntry, skip, ok bool) {
	if strings.HasPrefix(line, "total ") {
		return e, true, true
	}
	if e, skip, ok = parseUnixLine(line, now); ok {
		return e, skip, ok
	}
	return parseDOSLine(line)
}

// fields returns the start and end offsets of the first n space-separated
// fields of line.
func fields(line string, n int) [][2]int {
	var out [][2]int
	i := 0
	for len(out) < n {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// parseUnixLine: "drwxr-xr-x 2 owner group 4096 Nov 24 02:00 name", the
// group (or owner and group) sometimes absent. The name starts one space
// after the time or year, so names with spaces are read whole.
func parseUnixLine(line string, now time.Time) (e DirEntry, skip, ok bool) {
	if len(line) < 10 || !strings.ContainsRune("-dlbcps", rune(line[0])) {
		return e, false, false
	}
	f := fields(line, 9)
	// Find size, month, day, time-or-year after the permissions.
	for i := 2; i+3 < len(f); i++ {
		size, err := strconv.ParseInt(line[f[i][0]:f[i][1]], 10, 64)
		if err != nil || size < 0 {
			continue
		}
		mon, isMon := months[strings.ToLower(line[f[i+1][0]:f[i+1][1]])]
		if !isMon {
			continue
		}
		day, err := strconv.Atoi(line[f[i+2][0]:f[i+2][1]])
		if err != nil || day < 1 || day > 31 {
			continue
		}
		ty := line[f[i+3][0]:f[i+3][1]]
		var t time.Time
		var prec time.Duration
		if h, m, found := strings.Cut(ty, ":"); found {
			hh, err1 := strconv.Atoi(h)
			mm, err2 := strconv.Atoi(m)
			if err1 != nil || err2 != nil {
				continue
			}
			// No year: the last such date not in the future (ls -l
			// shows the time for dates within six months).
			t = time.Date(now.Year(), mon, day, hh, mm, 0, 0, time.UTC)
			if t.After(now.Add(24 * time.Hour)) {
				t = t.AddDate(-1, 0, 0)
			}
			prec = time.Minute
		} else {
			y, err := strconv.Atoi(ty)
			if err != nil {
				continue
			}
			t = time.Date(y, mon, day, 0, 0, 0, 0, time.UTC)
			prec = 24 * time.Hour
		}
		start := f[i+3][1] + 1
		if start >= len(line) {
			return e, false, false
		}
		e = DirEntry{Name: line[start:], Size: size, Time: t, Precision: prec}
		switch line[0] {
		case 'd':
			e.Dir, e.Size = true, -1
		case '-':
		case 'l':
			// ls -l: "name -> target"; a name holding " -> " itself
			// cannot be told from it, and is cut at the first.
			e.IsLink, e.Size = true, -1
			if n, target, found := strings.Cut(e.Name, " -> "); found {
				e.Name, e.Link = n, target
			}
		default:
			return e, true, true
		}
		if e.Name == "." || e.Name == ".." {
			return e, true, true
		}
		return e, false, true
	}
	return e, false, false
}

// parseDOSLine: "01-02-20  03:04PM       <DIR>          name" or
// "01-02-2020  15:04          1234 name".
func parseDOSLine(line string) (e DirEntry, skip, ok bool) {
	f := fields(line, 3)
	if len(f) < 3 {
		return e, false, false
	}
	date, clock, what := line[f[0][0]:f[0][1]], line[f[1][0]:f[1][1]], line[f[2][0]:f[2][1]]
	var t time.Time
	var err error
	for _, layout := range []string{"01-02-06 03:04PM", "01-02-2006 03:04PM", "01-02-06 15:04", "01-02-2006 15:04"} {
		if t, err = time.Parse(layout, date+" "+clock); err == nil {
			break
		}
	}
	if err != nil {
		return e, false, false
	}
	rest := strings.TrimLeft(line[f[2][1]:], " ")
	if rest == "" {
		return e, false, false
	}
	e = DirEntry{Name: rest, Time: t, Size: -1, Precision: time.Minute}
	if what == "<DIR>" {
		e.Dir = true
	} else if e.Size, err = strconv.ParseInt(what, 10, 64); err != nil || e.Size < 0 {
		return e, false, false
	}
	if e.Name == "." || e.Name == ".." {
		return e, true, true
	}
	return e, false, true
}
