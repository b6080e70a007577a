"""Data shipped with the app: message catalogues (i18n/), fonts and icons."""
