// Package download is the file side of fetching many URLs: the local
// name a URL gives (NameFromURL, for "get -O"), the hidden ".part" file
// a download is written to, resumed from, and renamed from only when the
// transfer is complete (Part, Batch), and the engine that runs many
// downloads at once with retries and resumes (Fetcher), telling what
// happens as Events for a display. The protocol side, including a
// resume's REST or Range, is access.Client.Do's.
package download
