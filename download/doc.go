// Package download is the file side of fetching many URLs: the local
// name a URL gives (NameFromURL, for "get -O"), and the hidden ".part"
// file a download is written to, resumed from, and renamed from only
// when the transfer is complete (Part). The protocol side, including a
// resume's REST or Range, is access.Client.Do's.
package download
