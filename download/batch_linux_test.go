package download

import (
	"os"
	"strings"
	"testing"
)

// TestSyncfsReportsErrorsOn: syncfs is trusted from Linux 5.8 on, and
// not on a release that does not read major.minor.
func TestSyncfsReportsErrorsOn(t *testing.T) {
	for release, want := range map[string]bool{
		"5.8":                    true,
		"5.8.0":                  true,
		"5.10.0-28-amd64":        true,
		"6.8.0-41-generic":       true,
		"6.18.44-fc-v657":        true,
		"10.0":                   true,
		"5.9":                    true,
		"5.7.19":                 false,
		"5.7":                    false,
		"4.19.0":                 false,
		"3.10.0-1160.el7.x86_64": false,
		"5":                      false,
		"5.":                     false,
		"5.x":                    false,
		"+6.1":                   false,
		"6.-1":                   false,
		"v6.1":                   false,
		"":                       false,
		"99999999999999999999.1": false,
	} {
		if got := syncfsReportsErrorsOn(release); got != want {
			t.Errorf("syncfsReportsErrorsOn(%q) = %v, want %v", release, got, want)
		}
	}
	// The running kernel's release, as uname(2) gives it to the batch.
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		release := strings.TrimSpace(string(b))
		if got, want := syncfsReportsErrors(), syncfsReportsErrorsOn(release); got != want {
			t.Errorf("syncfsReportsErrors() = %v on Linux %s, want %v", got, release, want)
		}
	}
}
