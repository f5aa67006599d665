/** @type {import('tailwindcss').Config} */
module.exports = {
  // Paths are relative to the repository root, where `make assets` runs.
  content: ["./views/**/*.templ", "./views/**/*.go", "./handlers/**/*.go", "./assets/js/charts.js"],
  theme: { extend: {} },
  plugins: [],
};
