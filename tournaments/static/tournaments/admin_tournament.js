// The admin's tournament form (tournaments/admin_forms.py): show only the option group of the
// selected variant and format, and fill a variant's fields in when a preset is chosen, so that
// the fields always show the values the games will be played with.
(function () {
  "use strict";

  function showGroup(kind, selected) {
    document.querySelectorAll("fieldset." + kind + "-options").forEach(function (group) {
      group.hidden = !group.classList.contains(kind + "-options-" + selected);
    });
  }

  function setField(variant, name, value) {
    var field = document.getElementById("id_rule__" + variant + "__" + name);
    if (!field) return;
    if (field.type === "checkbox") field.checked = Boolean(value);
    else if (Array.isArray(value)) field.value = value.join(", ");
    else field.value = String(value);
  }

  function fillFromPreset(variantSelect, presetSelect) {
    var variant = variantSelect.value;
    var defaults = JSON.parse(variantSelect.dataset.defaults || "{}")[variant] || {};
    var presets = JSON.parse(presetSelect.dataset.presets || "{}");
    var values = Object.assign({}, defaults, presets[presetSelect.value] || {});
    Object.keys(values).forEach(function (name) { setField(variant, name, values[name]); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var variant = document.getElementById("id_variant");
    var format = document.getElementById("id_format");
    var preset = document.getElementById("id_preset");
    if (variant) {
      showGroup("rule", variant.value);
      variant.addEventListener("change", function () {
        showGroup("rule", variant.value);
        if (preset && preset.value) { preset.value = ""; }
      });
    }
    if (format) {
      showGroup("format", format.value);
      format.addEventListener("change", function () { showGroup("format", format.value); });
    }
    if (variant && preset) {
      preset.addEventListener("change", function () { fillFromPreset(variant, preset); });
    }
  });
})();
