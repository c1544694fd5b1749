// ESLint for the book's browser programs and their tests. make test-js runs it from the repository's
// root (eslint --config tests/js/eslint.config.js), so the paths below are relative to that root.
"use strict";

const css = require("@eslint/css").default;
const js = require("@eslint/js");
const globals = require("globals");

// Corpus text reaches the page only as text: none of these may appear in the shipped scripts.
const HTML_SINKS = ["innerHTML", "outerHTML", "insertAdjacentHTML"].map((property) => ({
  property, message: "set corpus text with textContent, never as HTML",
}));

module.exports = [
  { ignores: ["tests/js/node_modules/**"] },
  { ...js.configs.recommended, files: ["**/*.js"] },
  {
    name: "shared rules",
    files: ["**/*.js"],
    rules: {
      "curly": "error",
      "eqeqeq": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-shadow": ["error", { hoist: "all" }],
      "no-unused-expressions": "error",
      "no-unused-vars": ["error", { caughtErrors: "none" }],
    },
  },
  {
    name: "browser programs (src/helpers/web/static)",
    files: ["src/helpers/web/static/**/*.js"],
    languageOptions: {
      // Classic scripts inlined into the book's pages; under node they export their pure functions.
      sourceType: "script",
      ecmaVersion: 2020,
      globals: { ...globals.browser, module: "readonly" },
    },
    rules: {
      "strict": ["error", "function"],
      "no-script-url": "error",
      "no-implicit-globals": "error",
      "no-restricted-properties": ["error", ...HTML_SINKS,
        { object: "document", property: "write", message: "no document.write" },
        { object: "document", property: "writeln", message: "no document.writeln" }],
    },
  },
  {
    name: "node tests and this config (tests/js)",
    files: ["tests/js/**/*.js"],
    languageOptions: { sourceType: "commonjs", ecmaVersion: 2022, globals: { ...globals.node } },
  },
  {
    name: "stylesheets (src/helpers/web/static)",
    files: ["src/helpers/web/static/**/*.css"],
    plugins: { css },
    language: "css/css",
    ...css.configs.recommended,
  },
];
