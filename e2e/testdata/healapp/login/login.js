// Every field tells the app what it holds as it is typed (POST /typed,
// "id=value"), so that a test knows which field a text was typed into.
for (const input of document.querySelectorAll('input')) {
  input.addEventListener('input', () => {
    fetch('/typed', { method: 'POST', body: input.id + '=' + input.value });
  });
}
document.getElementById('signin').onsubmit = (e) => {
  e.preventDefault();
  document.getElementById('status').textContent = 'Signed in as ' + document.getElementById('email').value;
};
