package download

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// syncfs commits the whole file system f lives on: its journal once, for
// every file of a batch (syncfs(2)).
func syncfs(f *os.File) error {
	return unix.Syncfs(int(f.Fd()))
}

// renameFile renames a complete part to its final name by rename(2)
// alone, where os.Rename first asks whether the new name is a folder: a
// folder there fails all the same (EISDIR), and the final name was found
// no folder when the part was opened.
func renameFile(from, to string) error {
	if err := unix.Rename(from, to); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// openFile opens a part file as os.OpenFile does, close-on-exec, but
// without trying the poller: a regular file cannot be polled, and
// os.OpenFile finds that out anew for each file, with four fcntl and an
// epoll_ctl.
func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := unix.Open(name, flag|unix.O_CLOEXEC, uint32(perm.Perm()))
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), name), nil
		case unix.EINTR:
			// A signal came first (on a FUSE file system, say): again,
			// as os.OpenFile does.
		default:
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

// fileSystem is the device of the file system f lives on.
func fileSystem(f *os.File) (uint64, bool) {
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}

var syncfsOnce struct {
	sync.Once
	reports bool
}

// syncfsReportsErrors says whether the running kernel's syncfs fails
// when the writeback of a file failed: since Linux 5.8 it reports the
// errors of the file system's error sequence since the descriptor was
// opened; before, it returned 0 whatever happened (syncfs(2), ERRORS and
// VERSIONS). Unknown, it does not.
func syncfsReportsErrors() bool {
	syncfsOnce.Do(func() {
		var u unix.Utsname
		if unix.Uname(&u) == nil {
			syncfsOnce.reports = syncfsReportsErrorsOn(unix.ByteSliceToString(u.Release[:]))
		}
	})
	return syncfsOnce.reports
}

// syncfsReportsErrorsOn reads a Linux release, "6.8.0-41-generic": true
// from 5.8 on; false before, or when it does not start major.minor.
func syncfsReportsErrorsOn(release string) bool {
	major, rest, ok := releaseNumber(release)
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	minor, _, ok := releaseNumber(rest[1:])
	if !ok {
		return false
	}
	return major > 5 || major == 5 && minor >= 8
}

// releaseNumber reads the decimal digits s starts with (at least one).
func releaseNumber(s string) (n int, rest string, ok bool) {
	end := 0
	for end < len(s) && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	return n, s[end:], err == nil
}
