/** XML files imported as text (the cross-engine probe bundle embeds scenes this way). */
declare module '*.xml' {
  const text: string;
  export default text;
}
