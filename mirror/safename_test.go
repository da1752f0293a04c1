package mirror

import "testing"

func TestSafeName(t *testing.T) {
	for _, name := range []string{"", ".", "..", "a/b", "/etc", "nul\x00byte"} {
		if safeName(name, false) == nil {
			t.Errorf("safeName(%q) accepted", name)
		}
	}
	if safeName(ManifestName, true) == nil {
		t.Errorf("the manifest's name accepted at the top")
	}
	for _, name := range []string{"a b", "semi;colon", "100%", "#1", "東京", "..x", ManifestName} {
		if err := safeName(name, false); err != nil {
			t.Errorf("safeName(%q) = %v", name, err)
		}
	}
}
