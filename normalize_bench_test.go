package rfc1738

import (
	"net/url"
	"strings"
	"testing"
)

// BenchmarkNormalize normalizes every valid line of each dataset and, in
// the same run, parses them (the cost Normalize of a normal URL is held
// to) and writes them with net/url's String. One op is the whole dataset;
// ns/url is the figure to compare.
func BenchmarkNormalize(b *testing.B) {
	for _, name := range datasets {
		var parsed, normal []URL
		var nets []*url.URL
		var valid []string
		for _, s := range loadDataset(b, name) {
			u, err := Parse(s)
			if err != nil {
				continue
			}
			valid = append(valid, s)
			parsed = append(parsed, u)
			n, _ := Parse(Normalize(u))
			normal = append(normal, n)
			if nu, err := url.Parse(s); err == nil {
				nets = append(nets, nu)
			}
		}
		b.Run(name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range valid {
					Parse(s)
				}
			}
			reportPerURL(b, len(valid))
		})
		b.Run(name+"/normalize", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range parsed {
					Normalize(u)
				}
			}
			reportPerURL(b, len(parsed))
		})
		b.Run(name+"/normalize-normal", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range normal {
					Normalize(u)
				}
			}
			reportPerURL(b, len(normal))
		})
		b.Run(name+"/append-normalize", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				for _, u := range parsed {
					buf = AppendNormalize(buf[:0], u)
				}
			}
			reportPerURL(b, len(parsed))
		})
		b.Run(name+"/net-url-String", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, nu := range nets {
					_ = nu.String()
				}
			}
			reportPerURL(b, len(nets))
		})
	}
}

// BenchmarkBuild rebuilds the file and http URLs of the datasets from their
// decoded parts with the builders, beside net/url's String of the same URLs.
func BenchmarkBuild(b *testing.B) {
	for _, name := range datasets {
		var builders []builder
		var nets []*url.URL
		for _, s := range loadDataset(b, name) {
			u, err := Parse(s)
			if err != nil {
				continue
			}
			switch u.Kind() {
			case KindFile:
				f, _ := u.File()
				builders = append(builders, FileURL{Host: f.Host, Segments: f.Segments()})
			case KindHTTP:
				h, _ := u.HTTP()
				hb := HTTPURL{Host: u.Host(), Port: u.PortNumber(), Search: unescape(h.Search), HasSearch: h.HasSearch}
				if _, ok := u.Port(); !ok {
					hb.Port = 0
				}
				for _, seg := range strings.Split(h.Path, "/") {
					hb.Segments = append(hb.Segments, unescape(seg))
				}
				builders = append(builders, hb)
			default:
				continue
			}
			if nu, err := url.Parse(s); err == nil {
				nets = append(nets, nu)
			}
		}
		if len(builders) == 0 {
			continue
		}
		b.Run(name+"/append", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			for b.Loop() {
				for _, bl := range builders {
					buf, _ = bl.Append(buf[:0])
				}
			}
			reportPerURL(b, len(builders))
		})
		b.Run(name+"/url", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, bl := range builders {
					bl.URL()
				}
			}
			reportPerURL(b, len(builders))
		})
		b.Run(name+"/net-url-String", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, nu := range nets {
					_ = nu.String()
				}
			}
			reportPerURL(b, len(nets))
		})
	}
}
