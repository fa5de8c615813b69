// The exercises of a chapter page come in a file of their own (assets/exercises/CHAPTER.json,
// written by the site builder), not in the page: only a reader who checks an answer or draws a
// variant needs them. Each file is fetched once a page, for all its exercises, when the first
// one asks; a failed fetch is forgotten, so the next ask tries again.
const files = new Map();

function fetchFile(url) {
  let file = files.get(url);
  if (!file) {
    file = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      return response.json();
    });
    files.set(url, file);
    file.catch(() => files.delete(url));
  }
  return file;
}

// src: the element's data-src, e.g. "assets/exercises/05-training.json". Resolves to exercise
// `id`'s spec and the text the engine reads it from (exerciseVariant, exerciseGrade): a file of
// that one exercise, as an inline island holds.
export async function fetchExercise(src, id) {
  const data = await fetchFile(new URL(src, document.baseURI).href);
  const spec = data?.exercises?.find((e) => e?.id === id);
  if (!spec) throw new Error(`${src} holds no exercise ${id}`);
  return { spec, file: JSON.stringify({ chapter: data.chapter, exercises: [spec] }) };
}
