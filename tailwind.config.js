/** @type {import('tailwindcss').Config} */
module.exports = {
  // Paths are relative to the repository root, where `make assets` runs.
  // Only views/ holds class names: scanning other Go code would pick up
  // ordinary words ("table", "hidden") and make the build depend on it.
  content: ["./views/**/*.templ", "./views/**/*.go", "./assets/js/charts.js"],
  theme: { extend: {} },
  plugins: [],
};
