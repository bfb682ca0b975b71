// The string checks the validators' quick pass and the one-pass walk make by hand, one home for
// both: what Ajv's maxLength and PLAIN_TEXT_PATTERN decide, without a regular expression.

/** Characters as Ajv's maxLength counts them: code points, a surrogate pair being one. */
export function codePoints(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/** Whether a string holds no NUL and no unpaired surrogate (PLAIN_TEXT_PATTERN, by hand). */
export function isPlainText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit === 0) return false;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      // A high half followed by a low half is one character; anything else is a lone half.
      if (unit > 0xdbff || (value.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) return false;
      i++;
    }
  }
  return true;
}
