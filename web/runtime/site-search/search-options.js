// The one description of the book's search, shared by the builder (which writes the documents
// into assets/search-index.json) and the browser (which indexes them with MiniSearch), so the
// two cannot drift. A document is one section of a written chapter: an h2 or h3 and the prose
// under it until the next heading (or a chapter's opening text, or an exercise's title and prompt).
//
//   id       a number, unique in the book
//   href     where the result leads: "01-roofline.html#the-critical-token-batch"
//   chapter  the chapter's number; chapterTitle its title
//   title    the section's heading (searched, boosted)
//   text     its prose, as plain text (searched, and the snippet is cut from it)
//   exercise true when the section is an exercise (its title and prompt)

export const SEARCH_FIELDS = ['title', 'text'];
export const DOCUMENT_FIELDS = ['id', 'href', 'chapter', 'chapterTitle', 'title', 'text', 'exercise'];

export const SEARCH_OPTIONS = {
  idField: 'id',
  fields: SEARCH_FIELDS,
  // Only what a result shows without the text: the text stays in the documents (see below).
  storeFields: ['href', 'chapter', 'chapterTitle', 'title', 'exercise'],
  searchOptions: {
    boost: { title: 3 },
    prefix: true, // "batc" finds "batch" while typing
    fuzzy: 0.2, // one slip in five letters: "critcal" finds "critical"
    combineWith: 'AND', // every word typed must be in the section
  },
};

// Results shown under the box.
export const MAX_RESULTS = 8;
