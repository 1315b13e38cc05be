/**
 * The slice of the DOM that the markdown converter reads, as structural types.
 *
 * The project compiles without the DOM lib, so linkedom's and turndown's own node types resolve to
 * loose types; these interfaces say exactly what the rules rely on, and any linkedom (or browser)
 * node satisfies them. Nothing here mutates a tree.
 */

export interface HtmlNode {
  readonly nodeType: number
  readonly nodeName: string
  readonly parentNode: HtmlNode | null
  readonly childNodes: ArrayLike<HtmlNode>
  readonly firstChild: HtmlNode | null
  readonly nextSibling: HtmlNode | null
  readonly previousSibling: HtmlNode | null
  readonly textContent: string | null
  cloneNode(deep: boolean): HtmlNode
  /**
   * Merges adjacent text nodes. linkedom splits text at every character reference (`a &lt; b`
   * becomes three nodes), which would hide the `<` from the escaper; DOMs that do not split
   * text this way may leave it out.
   */
  normalize?(): void
}

export interface HtmlElement extends HtmlNode {
  /** Set by turndown on every node it converts: whether it treats the element as a block. */
  readonly isBlock?: boolean
  readonly children: ArrayLike<HtmlElement>
  readonly previousElementSibling: HtmlElement | null
  getAttribute(name: string): string | null
  getElementsByTagName(name: string): ArrayLike<HtmlElement>
}

export interface HtmlDocument extends HtmlNode {
  readonly documentElement: HtmlElement | null
  getElementsByTagName(name: string): ArrayLike<HtmlElement>
}

export const ELEMENT_NODE = 1
export const TEXT_NODE = 3
export const DOCUMENT_NODE = 9
export const DOCUMENT_TYPE_NODE = 10

export const isElement = (node: HtmlNode | null): node is HtmlElement => node !== null && node.nodeType === ELEMENT_NODE

export const isDocument = (node: HtmlNode): node is HtmlDocument => node.nodeType === DOCUMENT_NODE

/** The attribute's value, or "" when it is absent. */
export const attr = (element: HtmlElement, name: string): string => element.getAttribute(name) ?? ""

/** The element children of `element` whose tag is one of `tags` (upper case). */
export const childElements = (element: HtmlElement, tags: ReadonlyArray<string>): Array<HtmlElement> => {
  const found: Array<HtmlElement> = []
  const children = element.children
  for (let i = 0; i < children.length; i++) {
    const child = children[i]
    if (child !== undefined && tags.includes(child.nodeName)) found.push(child)
  }
  return found
}

/** The nearest ancestor (not `node` itself) with one of `tags`, stopping at a `stopAt` tag. */
export const closestAncestor = (
  node: HtmlNode,
  tags: ReadonlyArray<string>,
  stopAt: ReadonlyArray<string> = []
): HtmlElement | undefined => {
  for (let current = node.parentNode; isElement(current); current = current.parentNode) {
    if (tags.includes(current.nodeName)) return current
    if (stopAt.includes(current.nodeName)) return undefined
  }
  return undefined
}
