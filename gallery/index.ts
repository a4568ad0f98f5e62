import pages from './pages.json';

const list = document.getElementById('pages')!;
for (const p of pages) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = `./pages/${p.name}.html`;
  a.textContent = p.title;
  const d = document.createElement('p');
  d.textContent = p.description;
  li.append(a, d);
  list.append(li);
}
(window as unknown as { __elasticaReady: boolean }).__elasticaReady = true;
